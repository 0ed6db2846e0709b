package provider_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// With TF_LOG=trace, a real apply, plan and destroy log each API call (method, path, status,
// duration) and never the credentials: neither the bearer token nor the client key, in clear or
// base64. TF_ACC_LOG_PATH sends Terraform's own log and the in-process provider's to one file,
// as TF_LOG_PATH does for a user.
func TestAccProvider_logsAPICallsWithoutSecrets(t *testing.T) {
	acctest.RequireCluster(t) // before resource.Test: the setup below comes first
	name := acctest.Name("acc-log")
	token := acctest.ServiceAccountToken(t, name, rbacv1.PolicyRule{
		APIGroups: []string{"kueue.x-k8s.io"}, Resources: []string{"workloadpriorityclasses"},
		Verbs: []string{"get", "create", "patch", "delete"},
	})
	config, secrets := loggingConfig(t, name, token)

	logFile := filepath.Join(t.TempDir(), "terraform.log")
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	// Only the credentials of the provider blocks, not the admin kubeconfig acctest.Run sets.
	t.Setenv("KUBE_CONFIG_PATHS", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_workload_priority_class", priorityClasses),
		Steps:                    []resource.TestStep{{Config: config}},
	})

	log := logEntries(t, logFile)
	// The CLI's first entry names it: "Terraform version: 1.8.5" or "OpenTofu version: 1.10.6".
	if !regexp.MustCompile(`\] +(Terraform|OpenTofu) version: `).MatchString(log) {
		t.Fatalf("the log holds nothing from Terraform (or OpenTofu) itself:\n%.2000s", log)
	}
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the log (%d bytes) holds a credential: %.12s...", len(log), s)
		}
	}
	calls := regexp.MustCompile(`\[DEBUG\] .*Kubernetes API call: .*`).FindAllString(log, -1)
	path := "/apis/kueue.x-k8s.io/v1beta2/workloadpriorityclasses/" + name + "-by-token"
	for method, status := range map[string]string{"PATCH": "201", "GET": "200", "DELETE": "200"} {
		if !anyLineHas(calls, "method="+method, "path="+path, "status="+status, "duration_ms=") {
			t.Errorf("no DEBUG line for %s %s with status %s and duration_ms; API call lines:\n%s",
				method, path, status, strings.Join(calls, "\n"))
		}
	}
}

// logEntries is the log without the test harness's own entries: terraform-plugin-testing logs
// each step's configuration, credentials included, which a user's TF_LOG never holds.
func logEntries(t *testing.T, file string) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// An entry starts with its timestamp; its continuation lines (multi-line fields) do not.
	startsEntry := regexp.MustCompile(`^\d{4}-\d\d-\d\dT`)
	var kept strings.Builder
	skip := false
	for _, line := range strings.Split(string(raw), "\n") {
		if startsEntry.MatchString(line) {
			skip = strings.Contains(line, " sdk.helper_resource: ")
		}
		if !skip {
			kept.WriteString(line + "\n")
		}
	}
	return kept.String()
}

// loggingConfig is one object written with the service account's token and, when the admin of
// the test cluster uses a client certificate, one written with it. It returns the credentials
// the log must never show: the token and the client key, as they are and in base64, and each line
// of the key's PEM body.
func loggingConfig(t *testing.T, name, token string) (config string, secrets []string) {
	admin := acctest.RestConfig(t)
	tls := "insecure = true"
	if !admin.Insecure {
		ca := admin.CAData
		if len(ca) == 0 && admin.CAFile != "" {
			var err error
			if ca, err = os.ReadFile(admin.CAFile); err != nil {
				t.Fatal(err)
			}
		}
		tls = fmt.Sprintf("cluster_ca_certificate = %q", ca)
	}
	config = fmt.Sprintf(`
provider "mlplatform" {
  host  = %q
  token = %q
  %s
}

resource "mlplatform_workload_priority_class" "by_token" {
  name  = "%s-by-token"
  value = 1
}
`, admin.Host, token, tls, name)
	secrets = []string{token, base64.StdEncoding.EncodeToString([]byte(token))}
	if len(admin.CertData) == 0 || len(admin.KeyData) == 0 {
		t.Log("the cluster's admin has no client certificate: only the token is checked")
		return config, secrets
	}
	config += fmt.Sprintf(`
provider "mlplatform" {
  alias              = "cert"
  host               = %q
  client_certificate = %q
  client_key         = %q
  %s
}

resource "mlplatform_workload_priority_class" "by_cert" {
  provider = mlplatform.cert
  name     = "%s-by-cert"
  value    = 2
}
`, admin.Host, admin.CertData, admin.KeyData, tls, name)
	secrets = append(secrets, base64.StdEncoding.EncodeToString(admin.KeyData))
	for _, line := range strings.Split(string(admin.KeyData), "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") { // a short last line could match by chance
			secrets = append(secrets, line)
		}
	}
	return config, secrets
}

func anyLineHas(lines []string, parts ...string) bool {
	for _, l := range lines {
		if containsAll(l, parts) {
			return true
		}
	}
	return false
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
