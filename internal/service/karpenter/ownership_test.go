package karpenter_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// A pool writes several objects; none of them is taken over, and nothing is written when one
// exists that another wrote (the apiserver's record of the refused apply's writes is empty).
func TestAccGPUNodePool_createNeverAdoptsAnyOfItsObjects(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-own")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			// Someone else's spot NodePool of the name the pool would give its own.
			acctest.ApplyAs(t, "kubectl", capacity.NodePoolKind, "", map[string]any{
				"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
				"metadata": map[string]any{"name": name + "-spot"},
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "theirs"},
					"requirements": []any{},
				}}},
			})
			t.Cleanup(func() { acctest.Delete(t, capacity.NodePoolKind, "", name+"-spot") })
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			// Destroy left the other NodePool as it was.
			spot := acctest.Get(t, capacity.NodePoolKind, "", name+"-spot")
			if got := nested(t, spot, "spec", "template", "spec", "nodeClassRef", "name"); got != "theirs" {
				return fmt.Errorf("the other NodePool was rewritten: nodeClassRef.name = %v", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: poolConfig(acctest.ProviderBlock("", rec.ProviderSetting()), name, poolA100NoBilling+"\n  spot = { max_gpus = 8 }"),
				ExpectError: regexp.MustCompile(`NodePool ` + regexp.QuoteMeta(name) + `-spot already exists and was not created\s+by\s+this\s+resource` +
					`(?s).*terraform import mlplatform_gpu_node_pool.<name> ` + regexp.QuoteMeta(name)),
			},
			{
				// Nothing was written, not even the on-demand NodePool that did not collide.
				PreConfig: func() {
					rec.ExpectNone(t, "the refused apply")
					if err := acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand"); err != nil {
						t.Error(err)
					}
				},
				// Without spot, the pool owns all it writes, and never touches the other NodePool.
				Config: poolConfig(acctest.ProviderBlock(""), name, poolA100NoBilling),
			},
		},
	})
}

// Pool x of H100s on p5.4xlarge and p5.48xlarge writes NodeOverlays x-1gpu and x-8gpu; a pool
// named x-8gpu on p5.48xlarge alone writes a NodeOverlay x-8gpu too. Whichever comes second is
// refused, and neither ever rewrites or deletes the other's overlay: the apiserver's record of each
// refused apply's writes is empty.
func TestAccGPUNodePool_derivedNamesNeverTouchAnotherPool(t *testing.T) {
	rec := acctest.RecordWrites(t)
	recorded := acctest.ProviderBlock("", rec.ProviderSetting())
	x := acctest.Name("acc-x")
	pool := func(resName, name, types string) string {
		return fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" %[1]q {
  name       = %[2]q
  node_class = "gpu"
  gpu        = { model = "h100", instance_types = %[3]s }
  mig        = { config = "all-1g.10gb" }
  on_demand  = { max_gpus = 8 }
}
`, resName, name, types)
	}
	poolX := pool("x", x, `["p5.4xlarge", "p5.48xlarge"]`)
	poolX8 := pool("x8", x+"-8gpu", `["p5.48xlarge"]`)
	owner := func(want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			ov := acctest.Get(t, karpenter.NodeOverlayKind, "", x+"-8gpu")
			if got := ov.GetAnnotations()[framework.OwnerAnnotation]; got != want {
				return fmt.Errorf("NodeOverlay %s-8gpu is owned by %q, want %q", x, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_node_pool", capacity.NodePoolKind),
		Steps: []resource.TestStep{
			{Config: acctest.ProviderBlock("") + poolX, Check: owner("mlplatform_gpu_node_pool/" + x)},
			{
				Config: recorded + poolX + poolX8,
				ExpectError: regexp.MustCompile(`NodeOverlay ` + regexp.QuoteMeta(x) + `-8gpu already exists and belongs to another\s+resource\s+` +
					`instance:\s+mlplatform_gpu_node_pool\s+` + regexp.QuoteMeta(x) + `\s+\(instance\s+[0-9a-f]{8}\)`),
			},
			{
				// Pool x keeps its overlay; x-8gpu wrote nothing (its NodePool does not exist).
				PreConfig: func() {
					rec.ExpectNone(t, "the apply refused for pool x-8gpu")
					if err := acctest.Gone(t, capacity.NodePoolKind, "", x+"-8gpu-on-demand"); err != nil {
						t.Error(err)
					}
				},
				Config: acctest.ProviderBlock("") + poolX,
				Check:  owner("mlplatform_gpu_node_pool/" + x),
			},
			{
				// Pool x moves to p5.4xlarge alone: its overlay x-8gpu goes; then x-8gpu may be written.
				Config: acctest.ProviderBlock("") + pool("x", x, `["p5.4xlarge"]`),
			},
			{
				Config: acctest.ProviderBlock("") + pool("x", x, `["p5.4xlarge"]`) + poolX8,
				Check:  owner("mlplatform_gpu_node_pool/" + x + "-8gpu"),
			},
			{
				// Pool x back on both types would need x-8gpu, which is the other pool's now.
				Config: recorded + poolX + poolX8,
				ExpectError: regexp.MustCompile(`NodeOverlay ` + regexp.QuoteMeta(x) + `-8gpu already exists and belongs to another\s+resource\s+` +
					`instance:\s+mlplatform_gpu_node_pool\s+` + regexp.QuoteMeta(x) + `-8gpu\s+\(instance\s+[0-9a-f]{8}\)`),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for pool x") },
				Config:    acctest.ProviderBlock("") + pool("x", x, `["p5.4xlarge"]`) + poolX8,
				Check:     owner("mlplatform_gpu_node_pool/" + x + "-8gpu"),
			},
		},
	})
}
