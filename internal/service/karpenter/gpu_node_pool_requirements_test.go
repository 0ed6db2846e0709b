package karpenter_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// requirement is one NodePool or NodeOverlay requirement as the API server holds it.
func requirement(key, operator string, values ...string) map[string]any {
	r := map[string]any{"key": key, "operator": operator}
	if len(values) > 0 {
		vs := []any{}
		for _, v := range values {
			vs = append(vs, v)
		}
		r["values"] = vs
	}
	return r
}

// sameRequirements compares the requirements at path of object what with want, in order.
func sameRequirements(what string, obj map[string]any, want []map[string]any, path ...string) error {
	got, _ := nestedSlice(obj, path...)
	w := []any{}
	for _, r := range want {
		w = append(w, r)
	}
	if !reflect.DeepEqual(got, w) {
		return fmt.Errorf("%s requirements:\n got %v\nwant %v", what, got, w)
	}
	return nil
}

func nestedSlice(obj map[string]any, path ...string) ([]any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[p]
	}
	s, ok := cur.([]any)
	return s, ok
}

// A pool that selects H100 instance types by requirements writes them, not a list, into each
// NodePool (accepted by Karpenter's CEL rules in the installed CRDs), supplies what the catalog's
// matching types supply, reads back and imports as it was configured, and moves between
// requirements and a list in place.
func TestAccGPUNodePool_instanceRequirements(t *testing.T) {
	name := acctest.Name("acc-req")
	cfg := func(gpu string) string {
		return acctest.ProviderBlock("") + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %[1]q
  node_class = "gpu"
  gpu        = %[2]s
  mig        = { config = "all-1g.10gb" }
  on_demand  = { max_gpus = 16 }
  spot       = { max_gpus = 8 }
}
`, name, gpu)
	}
	model := []map[string]any{
		requirement("karpenter.k8s.aws/instance-gpu-name", "In", "h100"),
		requirement("karpenter.k8s.aws/instance-gpu-memory", "In", "81920"),
	}
	nodePool := func(capacityType string, selection ...map[string]any) error {
		np := acctest.Get(t, capacity.NodePoolKind, "", name+"-"+capacityType)
		want := append(append([]map[string]any{}, selection...), requirement(capacity.LabelCapacityType, "In", capacityType))
		return sameRequirements("NodePool "+np.GetName(), np.Object, want, "spec", "template", "spec", "requirements")
	}
	overlay := func(n, gpus, slices string) error {
		ov := acctest.Get(t, karpenter.NodeOverlayKind, "", n)
		if got := nested(t, ov, "spec", "capacity", "nvidia.com/mig-1g.10gb"); got != slices {
			return fmt.Errorf("NodeOverlay %s capacity = %v, want %s", n, got, slices)
		}
		return sameRequirements("NodeOverlay "+n, ov.Object, []map[string]any{
			requirement(capacity.LabelNodePool, "In", name+"-on-demand", name+"-spot"),
			requirement("karpenter.k8s.aws/instance-gpu-count", "In", gpus),
		}, "spec", "requirements")
	}
	supplied := func(capacityType, attr string, want knownvalue.Check) plancheck.PlanCheck {
		return plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey(capacityType).AtMapKey(attr), want)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name + "-on-demand", name + "-spot"} {
				if err := acctest.Gone(t, capacity.NodePoolKind, "", n); err != nil {
					return err
				}
			}
			return acctest.Gone(t, karpenter.NodeOverlayKind, "", name)
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(`{
    model                 = "h100"
    instance_requirements = { families = ["p5"], min_generation = 5, gpu_counts = [8] }
    min_instance_types    = 1
  }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Known at plan, from p5.48xlarge, the one catalog type that matches.
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Int64Exact(8)),
					supplied("on-demand", "resources", knownvalue.MapExact(map[string]knownvalue.Check{"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(112)})),
					supplied("on-demand", "cpu_milli_per_gpu", knownvalue.Int64Exact(191450/8)),
					supplied("spot", "memory_mib_per_gpu", knownvalue.Int64Exact(1938410/8)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{suppliesReadBack{t, name}},
				Check: func(*terraform.State) error {
					for _, c := range []string{"on-demand", "spot"} {
						if err := nodePool(c, append(model,
							requirement("karpenter.k8s.aws/instance-family", "In", "p5"),
							requirement("karpenter.k8s.aws/instance-generation", "Gt", "4"),
							requirement("karpenter.k8s.aws/instance-gpu-count", "In", "8"),
							map[string]any{"key": capacity.LabelInstanceType, "operator": "Exists", "minValues": int64(1)},
						)...); err != nil {
							return err
						}
					}
					return overlay(name, "8", "56")
				},
			},
			acctest.ImportReleased(t, resource.TestStep{ResourceName: poolAddr, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "disruption", "expire_after"}}),
			{
				// Every size of the model: the counts differ, so count_per_node is null (the plan warns),
				// and an overlay per count selects its nodes by that count.
				Config: cfg(`{ model = "h100", instance_requirements = {} }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Null()),
					// p5.4xlarge offers a GPU less CPU than p5.48xlarge's eighth: the least is taken.
					supplied("on-demand", "cpu_milli_per_gpu", knownvalue.Int64Exact(15890)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{suppliesReadBack{t, name}},
				Check: func(*terraform.State) error {
					if err := nodePool("spot", model...); err != nil {
						return err
					}
					if err := overlay(name+"-1gpu", "1", "7"); err != nil {
						return err
					}
					if err := overlay(name+"-8gpu", "8", "56"); err != nil {
						return err
					}
					return acctest.Gone(t, karpenter.NodeOverlayKind, "", name)
				},
			},
			{
				// Changed outside Terraform: the drift shows in instance_requirements, and is restored.
				PreConfig: func() {
					np := acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand")
					reqs, _ := nestedSlice(np.Object, "spec", "template", "spec", "requirements")
					editSpec(t, capacity.NodePoolKind, name+"-on-demand",
						append([]any{requirement("karpenter.k8s.aws/instance-gpu-count", "In", "1")}, reqs...),
						"spec", "template", "spec", "requirements")
				},
				Config: cfg(`{ model = "h100", instance_requirements = {} }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error { return nodePool("on-demand", model...) },
			},
			{
				// Back to a list: the NodePools select by name again.
				Config: cfg(`{ model = "h100", instance_types = ["p5.48xlarge"] }`),
				Check: func(*terraform.State) error {
					if err := nodePool("on-demand", requirement(capacity.LabelInstanceType, "In", "p5.48xlarge")); err != nil {
						return err
					}
					return acctest.Gone(t, karpenter.NodeOverlayKind, "", name+"-1gpu")
				},
			},
		},
	})
}

// Requirements the model cannot meet, or that contradict it, are refused at plan, naming the
// attribute, before any API call.
func TestGPUNodePool_instanceRequirementsFailAtPlan(t *testing.T) {
	cfg := func(gpu, body string) func(string) string {
		return func(p string) string {
			return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = %s
  %s
}
`, gpu, body)
		}
	}
	onDemand := `on_demand = { max_gpus = 8 }`
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"with instance types": {cfg(`{ model = "h100", instance_types = ["p5.48xlarge"], instance_requirements = {} }`, onDemand),
			`Attribute "gpu.instance_types" cannot be specified when\s+"gpu.instance_requirements" is specified`},
		"another model's family": {cfg(`{ model = "a100-80gb", instance_requirements = { families = ["p5"] } }`, onDemand),
			`Attribute gpu.instance_requirements.families\[0\]: no A100-SXM4-80GB instance\s+type is of family p5 \(p5 carries H100-SXM5-80GB\)`},
		"a GPU count the model lacks": {cfg(`{ model = "l40s", instance_requirements = { gpu_counts = [2] } }`, onDemand),
			`Attribute gpu.instance_requirements.gpu_counts\[0\]: no L40S instance type\s+carries 2 GPUs; they carry 1, 4, 8`},
		"a generation above the model's": {cfg(`{ model = "a100-80gb", instance_requirements = { min_generation = 5 } }`, onDemand),
			`Attribute gpu.instance_requirements.min_generation: A100-SXM4-80GB instance\s+types are of generation 4 at most`},
		"none together": {cfg(`{ model = "l4", instance_requirements = { families = ["gr6"], gpu_counts = [8] } }`, onDemand),
			`Attribute gpu.instance_requirements: the requirements together match none of\s+the L4 instance types \(g6.xlarge: family g6, generation 6, 1 GPUs;`},
		"no family": {cfg(`{ model = "l4", instance_requirements = { families = [] } }`, onDemand),
			`Attribute gpu.instance_requirements.families list must contain at least 1\s+elements`},
		"generation zero": {cfg(`{ model = "l4", instance_requirements = { min_generation = 0 } }`, onDemand),
			`Attribute gpu.instance_requirements.min_generation value must be at least 1`},
		"static over two GPU counts": {cfg(`{ model = "h100", instance_requirements = {} }`, `on_demand = { nodes = 1 }`),
			`on_demand.nodes:\s+a static pool needs instance types of one GPU\s+count[\s\S]*give\s+gpu.instance_requirements.gpu_counts\s+one\s+count`},
		"price per instance over two counts": {cfg(`{ model = "h100", instance_requirements = {} }`, `on_demand = { max_gpus = 8, price_per_hour = 98.32 }`),
			`on_demand.price_per_hour: a price per instance needs instance types\s+with one GPU count[\s\S]*give\s+gpu.instance_requirements.gpu_counts one count`},
		"more types than match": {cfg(`{ model = "h200", instance_requirements = { families = ["p5en"] }, min_instance_types = 2 }`, onDemand),
			`gpu.min_instance_types:\s+2 instance types must be available, but the\s+pool has 1 \(p5en.48xlarge\)`},
	})
}
