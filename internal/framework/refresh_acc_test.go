package framework_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Refresh never forgets: only a 404 of an API the cluster serves removes a resource from state.
// An API that is not served, a refusal, or a server error fails the refresh and keeps the state,
// which the next plan against the healthy cluster shows: no change.

func wpcConfig(providerBody, name string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  %[1]s
}

resource "mlplatform_workload_priority_class" "test" {
  name  = %[2]q
  value = 100
}
`, providerBody, name)
}

func TestAccRefresh_keepsStateOnServerErrorAndRefusal(t *testing.T) {
	name := acctest.Name("acc-keep")
	unreachable, _ := acctest.UnreachableCluster(t)
	noRights := filepath.Join(t.TempDir(), "kubeconfig") // the steps' configs name it; PreCheck writes it
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			// A ServiceAccount that no role binds.
			kubeconfig := acctest.TokenKubeconfig(t, acctest.ServiceAccountToken(t, acctest.Name("acc-no-rights")))
			if err := os.Rename(kubeconfig, noRights); err != nil {
				t.Fatal(err)
			}
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wpcConfig("", name)},
			{
				// The API server answers 503.
				Config:      wpcConfig(fmt.Sprintf("host = %q", unreachable), name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Reading WorkloadPriorityClass ` + regexp.QuoteMeta(name)),
			},
			{
				// The credentials may not read the object.
				Config:      wpcConfig(fmt.Sprintf("config_path = %q", noRights), name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`RBAC refused verb "get" on resource "workloadpriorityclasses"`),
			},
			// The state still holds the object: against the healthy cluster, nothing to do.
			{Config: wpcConfig("", name), PlanOnly: true},
		},
	})
}

// An API that stops being served (Kueue uninstalled, its CRD being replaced) is an error naming
// what to install, not a deleted object; once served again, a 404 does mean gone.
func TestAccRefresh_keepsStateWhileTheAPIIsNotServed(t *testing.T) {
	name := acctest.Name("acc-unserved")
	const crdName = "workloadpriorityclasses.kueue.x-k8s.io"
	var restore func()
	resource.Test(t, resource.TestCase{ // not parallel: it removes an API that other tests may use
		PreCheck:                 func() { acctest.RequireOwnCluster(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wpcConfig("", name)},
			{
				PreConfig:   func() { restore = acctest.RemoveCRDs(t, crdName) },
				Config:      wpcConfig("", name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Kueue v0.15 or newer \(kueue.x-k8s.io/v1beta2\) is not installed on this\s+cluster`),
			},
			{
				// Served again: the object went with its CRD, a true 404, so the plan re-creates it.
				PreConfig:          func() { restore() },
				Config:             wpcConfig("", name),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: wpcConfig("", name)},
		},
	})
}
