package kueue_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// awsLevels are the EKS network topology labels (Amazon EKS User Guide, "Place distributed AI/ML
// workloads with network topology labels"), broadest first, then the node.
var awsLevels = []string{"topology.k8s.aws/network-node-layer-1", "topology.k8s.aws/network-node-layer-2",
	"topology.k8s.aws/network-node-layer-3", "kubernetes.io/hostname"}

// topologyConfig declares the topology, and with flavor a flavor using it, replaced with it (as a
// flavor must be: Kueue keeps a topology while a flavor names it, and forbids changing the name).
func topologyConfig(host, name string, levels []string, flavor bool) string {
	cfg := acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_topology" "test" {
  name   = %q
  levels = %s
}
`, name, hclStrings(levels))
	if flavor {
		cfg += fmt.Sprintf(`
resource "mlplatform_resource_flavor" "test" {
  name          = "%s-flavor"
  node_labels   = { "mlplatform.io/gpu" = "h100-sxm5-80gb" }
  topology_name = mlplatform_topology.test.name
  lifecycle {
    replace_triggered_by = [mlplatform_topology.test]
  }
}
`, name)
	}
	return cfg
}

func hclStrings(list []string) string {
	quoted := make([]string, len(list))
	for i, s := range list {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

func TestAccTopology_lifecycle(t *testing.T) {
	name := acctest.Name("acc-topology")
	levels := func(want []string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			raw := nested(t, acctest.Get(t, kueue.TopologyKind, "", name), "spec", "levels").([]any)
			var got []string
			for _, l := range raw {
				got = append(got, l.(map[string]any)["nodeLabel"].(string))
			}
			if !reflect.DeepEqual(got, want) {
				return fmt.Errorf("levels = %v, want %v", got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_topology", kueue.TopologyKind),
		Steps: []resource.TestStep{
			{Config: topologyConfig("", name, awsLevels, true), Check: levels(awsLevels)},
			acctest.ImportReleased(t, resource.TestStep{ResourceName: "mlplatform_topology.test", ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts"}}),
			{
				// Kueue's resource-in-use finalizer would hold the topology while the flavor names it.
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "test" {
  name          = "%s-flavor"
  node_labels   = { "mlplatform.io/gpu" = "h100-sxm5-80gb" }
  topology_name = %q
}
`, name, name),
				ExpectError: acctest.Words(fmt.Sprintf("Cannot delete Topology %s while it is in use", name) +
					" Kueue keeps the finalizer kueue.x-k8s.io/resource-in-use on a Topology while a ResourceFlavor names it" +
					fmt.Sprintf(" in topology_name. Held by: ResourceFlavor %s-flavor.", name)),
			},
			{
				// Levels are immutable in Kueue: a change replaces the topology, and the flavor with it.
				Config: topologyConfig("", name, awsLevels[1:], true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("mlplatform_topology.test", plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: levels(awsLevels[1:]),
			},
		},
	})
}

// A flavor naming a topology that does not exist is refused before anything is written (the
// apiserver's record of the provider's writes is empty).
func TestAccResourceFlavor_topologyNotFound(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-no-topology")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", kueue.ResourceFlavorKind),
		Steps: []resource.TestStep{{
			Config: acctest.ProviderBlock("", acctest.CostCentreDefault, rec.ProviderSetting()) + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "test" {
  name          = %q
  node_labels   = { "mlplatform.io/gpu" = "h100-sxm5-80gb" }
  topology_name = "%s-missing"
}
`, name, name),
			ExpectError: acctest.Words(fmt.Sprintf("Topology %s-missing does not exist, so Kueue would keep every ClusterQueue", name)),
		}},
	})
	rec.ExpectNone(t, "the refused apply")
}

func TestTopology_invalidInputFailsAtPlan(t *testing.T) {
	seventeen := make([]string, 17)
	for i := range seventeen {
		seventeen[i] = fmt.Sprintf("example.com/level-%d", i)
	}
	cases := map[string]struct {
		levels []string
		want   string
	}{
		"none":               {[]string{}, `Attribute levels: spec\.levels: Required value`},
		"too many":           {seventeen, `Attribute levels: spec\.levels: Too many: 17: must have at most 16 items`},
		"duplicate":          {[]string{"kubernetes.io/hostname", "kubernetes.io/hostname"}, `This attribute contains duplicate values`},
		"hostname not last":  {[]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}, `kubernetes.io/hostname can only be the last`},
		"not a label key":    {[]string{"Bad Label"}, `levels\[0\]`},
		"prefix not a label": {[]string{"Example.COM/x"}, `levels\[0\]`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return topologyConfig(host, "t", tc.levels, false) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
