package nvidia_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

func gpuConfig(host, name string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
data "mlplatform_gpu" "test" {
  name = %q
}
`, name)
}

// The data source reads the catalog without a cluster: every request would fail.
func TestGPUDataSource_byAlias(t *testing.T) {
	addr := "data.mlplatform_gpu.test"
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config: gpuConfig(host, "NVIDIA-A100-SXM4-80GB"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("canonical_name"), knownvalue.StringExact("A100-SXM4-80GB")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("memory_gb"), knownvalue.Int64Exact(80)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_capable"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("karpenter_gpu_name"), knownvalue.StringExact("a100")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("pci_device_ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("0x20B210DE")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_profiles"), knownvalue.ListSizeExact(7)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_profiles").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name":           knownvalue.StringExact("1g.10gb"),
					"compute_slices": knownvalue.Int64Exact(1),
					"memory_slices":  knownvalue.Int64Exact(1),
					"memory_gb":      knownvalue.Int64Exact(10),
					"max_instances":  knownvalue.Int64Exact(7),
					"resource_name":  knownvalue.StringExact("nvidia.com/mig-1g.10gb"),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_profiles").AtSliceIndex(4).AtMapKey("name"), knownvalue.StringExact("3g.40gb")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_profiles").AtSliceIndex(4).AtMapKey("memory_slices"), knownvalue.Int64Exact(4)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_config_names"), knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.StringExact("all-disabled"),
					1: knownvalue.StringExact("all-enabled"),
					2: knownvalue.StringExact("all-1g.10gb"),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("instance_types"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("p4de.24xlarge"), "gpus": knownvalue.Int64Exact(8)}),
				})),
			},
		}, {
			// A model without MIG: no profiles, only all-disabled.
			Config: gpuConfig(host, "l4"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("canonical_name"), knownvalue.StringExact("L4")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_capable"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_profiles"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("mig_config_names"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("all-disabled")})),
			},
		}}
	})
}

func TestGPUDataSource_unknownModelFailsAtPlan(t *testing.T) {
	acctest.RefusedAtPlan(t, func(host string) string { return gpuConfig(host, "a100-120gb") },
		`Attribute name: unknown GPU model "a100-120gb"; known models:`)
}
