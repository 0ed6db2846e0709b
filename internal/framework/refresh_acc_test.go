package framework_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// Refresh never forgets: only a 404 of an API the cluster serves removes a resource from state.
// An API that is not served, a refusal, or a server error fails the refresh and keeps the state,
// which the next plan against the healthy cluster shows: no change. Each failing refresh runs in a
// plan (which writes no state) and in a refresh-only apply, `terraform refresh`, which writes the
// state it refreshed unless the refresh fails: a refresh that forgot the resource instead of
// failing would leave a state without it.

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

// stateHolds is a Check that the state still has the priority class name.
func stateHolds(name string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttr("mlplatform_workload_priority_class.test", "name", name)
}

func TestAccRefresh_keepsStateOnServerErrorAndRefusal(t *testing.T) {
	name := acctest.Name("acc-keep")
	unreadable := regexp.MustCompile(`Reading WorkloadPriorityClass ` + regexp.QuoteMeta(name))
	refused := regexp.MustCompile(`RBAC refused verb "get" on resource "workloadpriorityclasses"`)
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
				ExpectError: unreadable,
			},
			// The same configuration, refreshed into the state.
			{RefreshState: true, ExpectError: unreadable},
			{
				// The credentials may not read the object.
				Config:      wpcConfig(fmt.Sprintf("config_path = %q", noRights), name),
				PlanOnly:    true,
				ExpectError: refused,
			},
			{RefreshState: true, ExpectError: refused},
			// The state still holds the object: against the healthy cluster, nothing to do.
			{Config: wpcConfig("", name), PlanOnly: true},
			{RefreshState: true, Check: stateHolds(name)},
		},
	})
}

// An API that stops being served (Kueue uninstalled, its CRD being replaced) is an error naming
// what to install, not a deleted object: the state keeps the resource, which finds its object
// again once the API is served and the object is back (restored from a backup, as by Velero);
// once served, a 404 does mean gone.
func TestAccRefresh_keepsStateWhileTheAPIIsNotServed(t *testing.T) {
	name := acctest.Name("acc-unserved")
	const crdName = "workloadpriorityclasses.kueue.x-k8s.io"
	notInstalled := regexp.MustCompile(`Kueue v0.15 or newer \(kueue.x-k8s.io/v1beta2\) is not installed on this\s+cluster`)
	var restore func()
	var backup *unstructured.Unstructured
	resource.Test(t, resource.TestCase{ // not parallel: it removes an API that other tests may use
		PreCheck:                 func() { acctest.RequireOwnCluster(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: wpcConfig("", name),
				Check: func(*terraform.State) error {
					backup = acctest.Get(t, priorityClasses, "", name)
					return nil
				},
			},
			{
				PreConfig:   func() { restore = acctest.RemoveCRDs(t, crdName) },
				Config:      wpcConfig("", name),
				PlanOnly:    true,
				ExpectError: notInstalled,
			},
			// Refreshed into the state: the same error, and the state is not written.
			{RefreshState: true, ExpectError: notInstalled},
			{
				// Served again, with the object restored as it was (its CRD took it): the state
				// still holds the resource, which reads its object and plans nothing. A state that
				// had forgotten it would plan a create.
				PreConfig: func() {
					restore()
					restoreObject(t, priorityClasses, backup)
				},
				Config: wpcConfig("", name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("mlplatform_workload_priority_class.test", plancheck.ResourceActionNoop),
				}},
			},
			{RefreshState: true, Check: stateHolds(name)},
			{
				// Served, and the object deleted: a true 404, so the plan re-creates it.
				PreConfig:          func() { acctest.Delete(t, priorityClasses, "", name) },
				Config:             wpcConfig("", name),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: wpcConfig("", name)},
		},
	})
}

// priorityClasses is the kind as the provider reads it (the kueue package's is its own).
var priorityClasses = queue.Kind("workloadpriorityclasses", "WorkloadPriorityClass", false)

// restoreObject creates obj again as a backup tool would: its metadata, labels and annotations
// (the provider's marks) and content, without what the apiserver assigns.
func restoreObject(t *testing.T, k kube.Kind, obj *unstructured.Unstructured) {
	t.Helper()
	o := obj.DeepCopy()
	for _, f := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	if _, err := acctest.Dynamic(t).Resource(k.GVR).Create(context.Background(), o, metav1.CreateOptions{}); err != nil {
		t.Fatalf("restoring %s %s: %v", k.Kind, o.GetName(), err)
	}
}
