package kueue_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

const (
	mkcAddr       = "mlplatform_multikueue_cluster.test"
	kueueSystemNS = "kueue-system"
)

// workerKubeconfig is a kubeconfig of the test cluster for a service account allowed everything,
// in the form MultiKueue accepts: the test cluster stands in as its own worker.
func workerKubeconfig(t *testing.T, name string) string {
	t.Helper()
	token := acctest.ServiceAccountToken(t, name, rbacv1.PolicyRule{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}})
	return string(acctest.TokenKubeconfigData(t, token))
}

// multiKueueConfig is a MultiKueueCluster named name whose kubeconfig source is source (HCL
// attributes), the MultiKueueConfig listing it and the multikueue AdmissionCheck naming that.
func multiKueueConfig(host, name, source string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
variable "kubeconfig" {
  type      = string
  sensitive = true
  default   = null
}

resource "mlplatform_multikueue_cluster" "test" {
  name = %[1]q
%[2]s
}

resource "mlplatform_multikueue_config" "test" {
  name     = %[1]q
  clusters = [mlplatform_multikueue_cluster.test.name]
}

resource "mlplatform_admission_check" "test" {
  name            = %[1]q
  controller_name = "kueue.x-k8s.io/multikueue"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "MultiKueueConfig"
    name      = mlplatform_multikueue_config.test.name
  }
}
`, name, source)
}

// condition is the status of an object's condition of type typ, "" when it has none.
func condition(obj *unstructured.Unstructured, typ string) (status, message string) {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == typ {
			s, _ := m["status"].(string)
			msg, _ := m["message"].(string)
			return s, msg
		}
	}
	return "", ""
}

// waitActive waits until Kueue reports the object's Active condition True: the MultiKueueCluster
// connected, the check active.
func waitActive(t *testing.T, k kube.Kind, name string) {
	t.Helper()
	waitFor(t, k, "", name, 2*time.Minute, func(o *unstructured.Unstructured) error {
		if s, msg := condition(o, "Active"); s != "True" {
			return fmt.Errorf("Active = %q (%s)", s, msg)
		}
		return nil
	})
}

func secretData(t *testing.T, name string) string {
	t.Helper()
	data, _, _ := unstructured.NestedString(acctest.Get(t, kueue.SecretKind, kueueSystemNS, name).Object, "data", "kubeconfig")
	return data
}

func TestAccMultiKueueCluster_lifecycle(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SharedNamespace(t, kueueSystemNS)
	name := acctest.Name("acc-mk")
	secret := name + "-kubeconfig"
	first, second := workerKubeconfig(t, name+"-a"), workerKubeconfig(t, name+"-b")
	written := func(kubeconfig string) string {
		return multiKueueConfig("", name, "  kubeconfig = "+hclString(kubeconfig))
	}
	var before string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			for tfType, k := range map[string]kube.Kind{"mlplatform_multikueue_cluster": kueue.MultiKueueClusterKind,
				"mlplatform_multikueue_config": kueue.MultiKueueConfigKind, "mlplatform_admission_check": kueue.AdmissionCheckKind} {
				if err := acctest.CheckDestroyed(t, tfType, k)(s); err != nil {
					return err
				}
			}
			if secretData(t, name+"-external") == "" {
				return fmt.Errorf("destroy took the referenced Secret")
			}
			return acctest.Gone(t, kueue.SecretKind, kueueSystemNS, secret)
		},
		Steps: []resource.TestStep{
			{
				Config: written(first),
				Check: func(*terraform.State) error {
					mkc := acctest.Get(t, kueue.MultiKueueClusterKind, "", name)
					if loc := nested(t, mkc, "spec", "clusterSource", "kubeConfig", "location"); loc != secret {
						return fmt.Errorf("kubeConfig.location = %v, want %s", loc, secret)
					}
					before = secretData(t, secret)
					if before == "" {
						return fmt.Errorf("Secret %s has no kubeconfig", secret)
					}
					return nil
				},
			},
			{
				// A new credential rewrites the Secret only.
				Config: written(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(mkcAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("mlplatform_multikueue_config.test", plancheck.ResourceActionNoop),
				}},
				Check: func(*terraform.State) error {
					if secretData(t, secret) == before {
						return fmt.Errorf("the Secret still holds the first kubeconfig")
					}
					return nil
				},
			},
			{
				// A Secret deleted outside Terraform is written again.
				PreConfig: func() { deleteAndWait(t, kueue.SecretKind, kueueSystemNS, secret) },
				Config:    written(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(mkcAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if secretData(t, secret) == "" {
						return fmt.Errorf("the Secret was not written again")
					}
					return nil
				},
			},
			// Import takes the MultiKueueCluster; its Secret is then referenced, not adopted.
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName: mkcAddr, ImportState: true, ImportStateId: name,
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "kubeconfig", "kubeconfig_secret"},
			}),
			{
				// Referencing a Secret written elsewhere: the resource's own Secret goes, the other stays.
				PreConfig: func() {
					acctest.ApplyAs(t, "external-secrets", kueue.SecretKind, kueueSystemNS, map[string]any{
						"apiVersion": "v1", "kind": "Secret",
						"metadata":   map[string]any{"name": name + "-external", "namespace": kueueSystemNS},
						"stringData": map[string]any{"kubeconfig": first},
					})
					t.Cleanup(func() { acctest.Delete(t, kueue.SecretKind, kueueSystemNS, name+"-external") })
				},
				Config: multiKueueConfig("", name, fmt.Sprintf("  kubeconfig_secret = %q", name+"-external")),
				Check: func(*terraform.State) error {
					if err := acctest.Gone(t, kueue.SecretKind, kueueSystemNS, secret); err != nil {
						return err
					}
					mkc := acctest.Get(t, kueue.MultiKueueClusterKind, "", name)
					if loc := nested(t, mkc, "spec", "clusterSource", "kubeConfig", "location"); loc != name+"-external" {
						return fmt.Errorf("kubeConfig.location = %v", loc)
					}
					return nil
				},
			},
		},
	})
}

// Kueue connects to the worker with the kubeconfig the resource wrote, and activates the check
// that names it. Only on the test binary's own control plane: the worker's kubeconfig names the
// apiserver at the address this host reaches it by, which Kueue inside KUBECONFIG's cluster may not.
func TestAccMultiKueueCluster_activeWithTheWrittenKubeconfig(t *testing.T) {
	acctest.RequireCluster(t)
	if !acctest.OwnCluster() {
		t.Skip("Kueue must reach the worker at the address this host uses; on KUBECONFIG's cluster it runs inside the cluster")
	}
	acctest.SharedNamespace(t, kueueSystemNS)
	name := acctest.Name("acc-mk-active")
	config := multiKueueConfig("", name, "  kubeconfig = "+hclString(workerKubeconfig(t, name)))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_multikueue_cluster", kueue.MultiKueueClusterKind),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				waitActive(t, kueue.MultiKueueClusterKind, name)
				waitActive(t, kueue.AdmissionCheckKind, name)
				return nil
			},
		}},
	})
}

// A Secret of the same name that this resource did not write is never taken over: the apply
// stops before the MultiKueueCluster, and the Secret is left as it was.
func TestAccMultiKueueCluster_neverAdoptsSecret(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SharedNamespace(t, kueueSystemNS)
	name := acctest.Name("acc-mk-adopt")
	acctest.ApplyAs(t, "someone-else", kueue.SecretKind, kueueSystemNS, map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"name": name + "-kubeconfig", "namespace": kueueSystemNS},
		"stringData": map[string]any{"kubeconfig": "theirs"},
	})
	t.Cleanup(func() { acctest.Delete(t, kueue.SecretKind, kueueSystemNS, name+"-kubeconfig") })
	config := multiKueueConfig("", name, "  kubeconfig = "+hclString(workerKubeconfig(t, name)))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      config,
			ExpectError: regexp.MustCompile(`Secret kueue-system/` + name + `-kubeconfig`),
		}, {
			// Before anything is destroyed: the apply stopped before the MultiKueueCluster, and left
			// the Secret as it was. The plan still wants to create all of it.
			PreConfig: func() {
				if err := acctest.Gone(t, kueue.MultiKueueClusterKind, "", name); err != nil {
					t.Error(err)
				}
				if got := secretData(t, name+"-kubeconfig"); got != "dGhlaXJz" { // base64 of "theirs"
					t.Errorf("the refused apply changed the other Secret: %q", got)
				}
			},
			Config:             config,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
	if got := secretData(t, name+"-kubeconfig"); got != "dGhlaXJz" { // base64 of "theirs"
		t.Errorf("the other Secret was changed: %q", got)
	}
	if err := acctest.Gone(t, kueue.MultiKueueClusterKind, "", name); err != nil {
		t.Error(err)
	}
}

// The kubeconfig is a credential: not in the plan's text, not in Terraform's or the provider's
// logs at the most verbose level.
func TestAccMultiKueueCluster_kubeconfigNeverShown(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SharedNamespace(t, kueueSystemNS)
	name := acctest.Name("acc-mk-log")
	kubeconfig := workerKubeconfig(t, name)
	token := regexp.MustCompile(`token: (\S+)`).FindStringSubmatch(kubeconfig)[1]
	logFile := filepath.Join(t.TempDir(), "terraform.log")
	w := acctest.NewWorkspace(t, acctest.WorkspaceProviders+multiKueueConfig("", name, "  kubeconfig = var.kubeconfig"),
		"KUBE_CONFIG_PATHS="+os.Getenv("KUBE_CONFIG_PATHS"), "TF_LOG=trace", "TF_LOG_PATH="+logFile,
		"TF_VAR_kubeconfig="+kubeconfig)
	out := w.Must(t, "apply", "-auto-approve")
	t.Cleanup(func() { w.Must(t, "destroy", "-auto-approve") })
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) == 0 {
		t.Fatal("Terraform wrote no log")
	}
	for what, text := range map[string]string{"the apply's output": out, "the trace log": string(log)} {
		if strings.Contains(text, token) {
			t.Errorf("%s shows the kubeconfig's token", what)
		}
	}
	if !strings.Contains(out, "kubeconfig") || !strings.Contains(out, "(sensitive value)") {
		t.Errorf("the plan does not show kubeconfig as sensitive:\n%s", out)
	}
	if _, err := acctest.Dynamic(t).Resource(kueue.SecretKind.GVR).Namespace(kueueSystemNS).Get(context.Background(), name+"-kubeconfig", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestMultiKueue_invalidInputFailsAtPlan(t *testing.T) {
	good := "  kubeconfig = " + hclString(validKubeconfig(""))
	cases := map[string]struct{ source, extra, want string }{
		"insecure": {source: "  kubeconfig = " + hclString(validKubeconfig("insecure-skip-tls-verify: true")),
			want: `insecure TLS verification is not allowed for cluster "w"`},
		"ca file": {source: "  kubeconfig = " + hclString(strings.Replace(validKubeconfig(""), "certificate-authority-data: Y2E=", "certificate-authority: /ca.crt", 1)),
			want: `certificate-authority file paths are not allowed`},
		"token file": {source: "  kubeconfig = " + hclString(strings.Replace(validKubeconfig(""), "token: t", "tokenFile: /token", 1)),
			want: `tokenFile is not allowed \(user "w"\)`},
		"exec": {source: "  kubeconfig = " + hclString(strings.Replace(validKubeconfig(""), "{token: t}", "{exec: {apiVersion: client.authentication.k8s.io/v1, command: aws, interactiveMode: Never}}", 1)),
			want: `exec plugins are not allowed`},
		"server host": {source: "  kubeconfig = " + hclString(strings.Replace(validKubeconfig(""), "10.0.0.1", "bad_host", 1)),
			want: `untrusted server endpoint`},
		"not a kubeconfig": {source: `  kubeconfig = "[not yaml"`, want: `it is not a kubeconfig`},
		"no source":        {source: "", want: `At least one of these attributes must be configured: \[kubeconfig,kubeconfig_secret,kubeconfig_path\]`},
		"path and secret": {source: `  kubeconfig_path = "/etc/multikueue/kubeconfigs/w"
  kubeconfig_secret = "w"`, want: `cannot be configured together`},
		"relative path":     {source: `  kubeconfig_path = "kubeconfigs/w"`, want: `"kubeconfigs/w": it is not absolute`},
		"path outside":      {source: `  kubeconfig_path = "/root/.kube/config"`, want: `it is not under /etc/multikueue/kubeconfigs/`},
		"path escaping":     {source: `  kubeconfig_path = "/etc/multikueue/kubeconfigs/../../passwd"`, want: `it is not under`},
		"secret name":       {source: `  kubeconfig_secret = "Worker_A"`, want: `Attribute kubeconfig_secret`},
		"duplicate cluster": {source: good, extra: `clusters = ["w", "w"]`, want: `Attribute clusters.*must be unique`},
		"no cluster":        {source: good, extra: `clusters = []`, want: `Attribute clusters: spec.clusters: Required value`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string {
			config := acctest.ProviderBlock(host, acctest.CostCentreDefault) +
				fmt.Sprintf("resource \"mlplatform_multikueue_cluster\" \"test\" {\n  name = \"w\"\n%s\n}\n", tc.source)
			if tc.extra != "" {
				config += fmt.Sprintf("resource \"mlplatform_multikueue_config\" \"test\" {\n  name = \"w\"\n  %s\n}\n", tc.extra)
			}
			return config
		}, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// Kueue's own checks keep a multikueue check without a MultiKueueConfig inactive: refused at plan.
func TestAdmissionCheck_multiKueueParametersAtPlan(t *testing.T) {
	cases := map[string]struct{ params, want string }{
		"none":       {"", `Kueue's kueue.x-k8s.io/multikueue check reads its parameters from a MultiKueueConfig`},
		"wrong kind": {`parameters = { api_group = "kueue.x-k8s.io", kind = "ProvisioningRequestConfig", name = "w" }`, `set api_group = "kueue.x-k8s.io" and kind = "MultiKueueConfig". With "ProvisioningRequestConfig"`},
		"wrong group": {`parameters = { api_group = "example.com", kind = "MultiKueueConfig", name = "w" }`,
			`With "example.com" Kueue keeps the check inactive \("wrong group"\)`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string {
			return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(
				"resource \"mlplatform_admission_check\" \"test\" {\n  name = \"w\"\n  controller_name = \"kueue.x-k8s.io/multikueue\"\n  %s\n}\n", tc.params)
		}, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// validKubeconfig is a kubeconfig MultiKueue accepts, with extra added to its cluster.
func validKubeconfig(extra string) string {
	cluster := `server: "https://10.0.0.1:6443", certificate-authority-data: Y2E=`
	if extra != "" {
		cluster += ", " + extra
	}
	return `apiVersion: v1
kind: Config
clusters: [{name: w, cluster: {` + cluster + `}}]
users: [{name: w, user: {token: t}}]
contexts: [{name: w, context: {cluster: w, user: w}}]
current-context: w
`
}

// hclString is s as an HCL heredoc.
func hclString(s string) string { return "<<-EOT\n" + s + "EOT" }
