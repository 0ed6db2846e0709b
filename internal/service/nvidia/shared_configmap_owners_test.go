package nvidia_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	registrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// A shared ConfigMap's keys belong to resource instances, one each (issue 23, defects 4 to 7).

// migOn is a mlplatform_mig_config `res` writing ConfigMap name of namespace ns.
func migOn(res, ns, name string) string {
	return fmt.Sprintf(`
resource "mlplatform_mig_config" %[1]q {
  namespace   = %[2]q
  name        = %[3]q
  mig_configs = { "all-disabled" = { entries = [{ mig_enabled = false }] } }
}
`, res, ns, name)
}

// Defect 4: two resources of one type declaring the same key set (every pair of
// mlplatform_mig_config, which writes one key) are refused at plan, without an API call.
func TestSharedConfigMap_equalKeySetsFailAtPlan(t *testing.T) {
	acctest.RefusedAtPlan(t, func(host string) string {
		return acctest.ProviderBlock(host, acctest.CostCentreDefault) + migOn("a", "gpu-operator", "mig") + migOn("b", "gpu-operator", "mig")
	}, `Key "config.yaml" of ConfigMap gpu-operator/mig is declared by two resources: mlplatform_mig_config "gpu-operator/mig" declaring keys config.yaml and mlplatform_mig_config "gpu-operator/mig" declaring keys config.yaml`)
}

// Defect 5: two workspaces apply the same key of one ConfigMap at the same moment (an admission
// webhook holds both writes until both have read the ConfigMap): one is refused, naming the
// other's claim; the winner's destroy deletes the ConfigMap it created, and nothing of the
// loser's is left. Both plans are made first, so that the applies, started together, reach their
// writes within a few seconds of each other even on a loaded machine; the test fails if they did
// not meet at the webhook (the race would not have been run).
func TestAccSharedConfigMap_parallelAppliesOfOneKey(t *testing.T) {
	acctest.RequireCluster(t)
	t.Parallel()
	ns, name := acctest.Name("acc-race"), "mig-parted"
	acctest.Namespace(t, ns)
	admit, met := acctest.Barrier(2, 20*time.Second)
	cms := acctest.Dynamic(t).Resource(kube.ConfigMapKind.GVR).Namespace(ns)
	acctest.ServeValidatingWebhook(t, acctest.RestConfig(t), ns+"-barrier", registrationv1.RuleWithOperations{
		Operations: []registrationv1.OperationType{registrationv1.Create, registrationv1.Update},
		Rule:       registrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}, Scope: ptr.To(registrationv1.NamespacedScope)},
	}, fmt.Sprintf("request.namespace == %q", ns), 30*time.Second, func(ctx context.Context) error {
		_, err := cms.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "probe"},
		}}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	}, admit)

	a := acctest.NewWorkspace(t, acctest.WorkspaceProviders+migOn("m", ns, name))
	b := acctest.NewWorkspace(t, acctest.WorkspaceProviders+migOn("m", ns, name))
	a.Must(t, "plan", "-input=false", "-out=race.tfplan")
	b.Must(t, "plan", "-input=false", "-out=race.tfplan")
	_, waitA := a.Background(t, "apply", "-input=false", "race.tfplan")
	_, waitB := b.Background(t, "apply", "-input=false", "race.tfplan")
	outA, errA := waitA()
	outB, errB := waitB()
	if !met() {
		t.Errorf("the two workspaces' writes did not meet at the barrier within 20s (the race was not run)")
	}
	winner, loser, out := a, b, outB
	switch {
	case errA == nil && errB == nil:
		t.Fatalf("both workspaces claimed key config.yaml:\n%s\n%s", outA, outB)
	case errA != nil && errB != nil:
		t.Fatalf("both workspaces were refused:\n%s\n%s", outA, outB)
	case errA != nil:
		winner, loser, out = b, a, outA
	}
	t.Cleanup(func() { _, _, _ = winner.Run(t, "destroy", "-auto-approve", "-input=false") })
	if !acctest.Words(`Key "config.yaml" of ConfigMap ` + ns + `/` + name + ` is claimed by mlplatform_mig_config/`).MatchString(out) {
		t.Errorf("the refusal does not name the claim:\n%s", out)
	}
	if st := loser.State(t); len(st) != 0 {
		t.Errorf("the refused workspace has state: %v", st)
	}
	cm := acctest.Get(t, kube.ConfigMapKind, ns, name)
	if claim := cm.GetAnnotations()[framework.KeyClaimAnnotation("config.yaml")]; !strings.HasPrefix(claim, "mlplatform_mig_config/") {
		t.Errorf("claim of config.yaml = %q", claim)
	}
	loser.Must(t, "destroy", "-auto-approve", "-input=false")
	acctest.Get(t, kube.ConfigMapKind, ns, name) // the loser's destroy leaves it
	winner.Must(t, "destroy", "-auto-approve", "-input=false")
	if err := acctest.Gone(t, kube.ConfigMapKind, ns, name); err != nil {
		t.Error(err)
	}
}

// helmConfigMap writes ConfigMap name of ns as Helm would: its managed-by label and a key.
func helmConfigMap(t *testing.T, ns, name string, data map[string]any) {
	t.Helper()
	acctest.ApplyAs(t, "helm", kube.ConfigMapKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": ns, "labels": map[string]any{"app.kubernetes.io/managed-by": "Helm"}},
		"data":     data,
	})
}

// labelIs checks a label of the ConfigMap.
func labelIs(t *testing.T, ns, name, key, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := acctest.Get(t, kube.ConfigMapKind, ns, name).GetLabels()[key]; got != want {
			return fmt.Errorf("label %s = %q, want %q", key, got, want)
		}
		return nil
	}
}

// Defect 6: a label another manager set on a shared ConfigMap (Helm's managed-by) is never
// overwritten: a default label with another value is refused, naming the label and Helm; one that
// does not collide is written, and its destroy leaves Helm's label and key.
func TestAccSharedConfigMap_othersLabelsAreNotOverwritten(t *testing.T) {
	ns, name := acctest.Name("acc-helm-labels"), "device-plugin-config"
	withDefault := func(labels string) string {
		return acctest.ProviderBlock("", "default_labels = { "+labels+" }")
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Namespace(t, ns)
			helmConfigMap(t, ns, name, map[string]any{"default": pluginDefault})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(dataIs(t, ns, name, map[string]string{"default": pluginDefault}),
			labelIs(t, ns, name, "app.kubernetes.io/managed-by", "Helm")),
		Steps: []resource.TestStep{
			{
				Config:      withDefault(`"app.kubernetes.io/managed-by" = "terraform"`) + sharedTS("a", ns, name, "a100"),
				ExpectError: regexp.MustCompile(`\.metadata\.labels\.app\.kubernetes\.io/managed-by, set by field manager\s+"helm"`),
			},
			{
				PreConfig: func() {
					// The refused apply wrote nothing.
					if err := dataIs(t, ns, name, map[string]string{"default": pluginDefault})(nil); err != nil {
						t.Error(err)
					}
				},
				Config: withDefault(`"billing.mlplatform.io/cost-centre" = "cc-1234"`) + sharedTS("a", ns, name, "a100"),
				Check: resource.ComposeTestCheckFunc(dataIs(t, ns, name, map[string]string{"a100": timeSliced(2), "default": pluginDefault}),
					labelIs(t, ns, name, "app.kubernetes.io/managed-by", "Helm"), labelIs(t, ns, name, "billing.mlplatform.io/cost-centre", "cc-1234")),
			},
		},
	})
}

// Defect 7: two resources that imported one ConfigMap each write under a field manager of their
// own: the second import takes only the keys the first did not claim, and neither apply removes
// the other's key.
func TestAccSharedConfigMap_twoImportsOfOneConfigMap(t *testing.T) {
	ns, name := acctest.Name("acc-two-imports"), "time-slicing"
	helmConfig := "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 2\n"
	// Each resource changes the replicas of its key, so that its manager owns the key alone.
	one := func(res, key string) string {
		return fmt.Sprintf(`
resource "mlplatform_time_slicing_config" %[1]q {
  namespace = %[2]q
  name      = %[3]q
  configs   = { %[4]q = { resources = [{ name = "nvidia.com/gpu", replicas = 4 }] } }
}
`, res, ns, name, key)
	}
	importOf := func(res, config string) resource.TestStep {
		return resource.TestStep{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + config, ResourceName: "mlplatform_time_slicing_config." + res,
			ImportState: true, ImportStateId: ns + "/" + name, ImportStatePersist: true}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Namespace(t, ns)
			helmConfigMap(t, ns, name, map[string]any{"a100": helmConfig, "l4": helmConfig})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			importOf("a", one("a", "a100")),
			// a's apply rewrites its key only: Helm's content stays in l4.
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + one("a", "a100"), Check: dataIs(t, ns, name, map[string]string{"a100": timeSliced(4), "l4": helmConfig})},
			importOf("b", one("a", "a100")+one("b", "l4")),
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + one("a", "a100") + one("b", "l4"), Check: dataIs(t, ns, name, map[string]string{"a100": timeSliced(4), "l4": timeSliced(4)})},
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + one("a", "a100") + one("b", "l4"), PlanOnly: true},
			{
				// The plan changed nothing.
				PreConfig: func() {
					if err := dataIs(t, ns, name, map[string]string{"a100": timeSliced(4), "l4": timeSliced(4)})(nil); err != nil {
						t.Error(err)
					}
				},
				// Each destroy takes its own key only.
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + one("a", "a100"),
				Check:  dataIs(t, ns, name, map[string]string{"a100": timeSliced(4)}),
			},
		},
	})
}
