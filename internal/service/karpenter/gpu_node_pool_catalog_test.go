package karpenter_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// GB200 runs on p6e-gb200.36xlarge (4 GPUs): a pool of it with GB200's all-balanced layout
// supplies its slices per GPU and per node, selects the type by name (the Karpenter GPU labels EC2
// gives it are not known) and has no table price.
func TestAccGPUNodePool_gb200(t *testing.T) {
	name := acctest.Name("acc-gb200")
	onDemand := tfjsonpath.New("supplies").AtMapKey("on-demand")
	balanced := `
  mig       = { profiles = { "1g.23gb" = 2, "2g.47gb" = 1, "3g.93gb" = 1 } }
  on_demand = { max_gpus = 8 }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			return acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand")
		},
		Steps: []resource.TestStep{
			{
				Config: poolConfigGPU(acctest.ProviderBlock(""), name, `{ model = "gb200" }`, balanced),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, onDemand.AtMapKey("per_node"), knownvalue.MapExact(map[string]knownvalue.Check{
						"nvidia.com/mig-1g.23gb": knownvalue.Int64Exact(8),
						"nvidia.com/mig-2g.47gb": knownvalue.Int64Exact(4),
						"nvidia.com/mig-3g.93gb": knownvalue.Int64Exact(4),
					})),
					plancheck.ExpectKnownValue(poolAddr, onDemand.AtMapKey("resources").AtMapKey("nvidia.com/mig-3g.93gb"), knownvalue.Int64Exact(8)),
					// Karpenter's allocatable computed for 144 vCPUs and 960 GiB, over 4 GPUs.
					plancheck.ExpectKnownValue(poolAddr, onDemand.AtMapKey("cpu_milli_per_gpu"), knownvalue.Int64Exact(35892)),
					plancheck.ExpectKnownValue(poolAddr, onDemand.AtMapKey("memory_mib_per_gpu"), knownvalue.Int64Exact(226964)),
					plancheck.ExpectKnownValue(poolAddr, onDemand.AtMapKey("hourly_price"), knownvalue.Null()),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Int64Exact(4)),
				}},
				Check: func(*terraform.State) error {
					np := acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand")
					if got := nested(t, np, "spec", "template", "metadata", "labels", "nvidia.com/mig.config"); got != "all-balanced" {
						return fmt.Errorf("mig.config label = %v", got)
					}
					want := []any{"p6e-gb200.36xlarge"}
					for _, r := range nested(t, np, "spec", "template", "spec", "requirements").([]any) {
						if r := r.(map[string]any); r["key"] == "node.kubernetes.io/instance-type" && !reflect.DeepEqual(r["values"], want) {
							return fmt.Errorf("instance types %v", r["values"])
						}
					}
					return nil
				},
			},
			{
				Config:   poolConfigGPU(acctest.ProviderBlock(""), name, `{ model = "gb200" }`, balanced),
				PlanOnly: true,
			},
		},
	})
}

// A model that only NVIDIA's MIG configs name (no EC2 instance type carries it) is refused in a
// pool at plan, naming the attribute and the models a pool can run.
func TestGPUNodePool_modelNotOnEC2FailsAtPlan(t *testing.T) {
	type tc = struct {
		config func(string) string
		want   string
	}
	cases := map[string]tc{}
	for alias, name := range map[string]string{"h20": "H20-96GB", "a800": "A800-SXM4-80GB", "h200-nvl": "H200-NVL-141GB", "a30": "A30-24GB"} {
		cases[alias] = tc{func(p string) string { return poolConfigModel(p, alias) },
			`Attribute gpu.model: ` + name + ` is not offered on AWS EC2: no instance type in the catalog carries it, so no node pool can launch it ` +
				`\(it can still be named in mlplatform_mig_config entries\)\. Models on EC2: A100-SXM4-40GB, A100-SXM4-80GB, H100-SXM5-80GB, H200-141GB, B200-180GB, GB200-186GB`}
	}
	for name, c := range cases {
		c.want = strings.ReplaceAll(c.want, " ", `\s+`)
		cases[name] = c
	}
	refuseAtPlan(t, cases)
}
