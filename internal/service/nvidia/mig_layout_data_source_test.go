package nvidia_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

const layoutAddr = "data.mlplatform_mig_layout.test"

func layoutConfig(host, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
data "mlplatform_mig_layout" "test" {
  %s
}
`, body)
}

func TestMigLayoutDataSource(t *testing.T) {
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			// The spot check: 8 A100 80GB GPUs x 7 slices.
			Config: layoutConfig(host, `
  gpu           = "a100-80gb"
  instance_type = "p4de.24xlarge"
  config        = "all-1g.10gb"
  strategy      = "mixed"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("resources_per_node"), knownvalue.MapExact(map[string]knownvalue.Check{
					"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(56),
				})),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("resources_per_gpu"), knownvalue.MapExact(map[string]knownvalue.Check{
					"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(7),
				})),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("valid_config_name"), knownvalue.StringExact("all-1g.10gb")),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("custom_config"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("gpus_per_node"), knownvalue.Int64Exact(8)),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("model"), knownvalue.StringExact("A100-SXM4-80GB")),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("layout"), knownvalue.MapExact(map[string]knownvalue.Check{
					"1g.10gb": knownvalue.Int64Exact(7),
				})),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("node_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"nvidia.com/mig.config":                 knownvalue.StringExact("all-1g.10gb"),
					"nvidia.com/gpu.product":                knownvalue.StringExact("NVIDIA-A100-SXM4-80GB"),
					"karpenter.k8s.aws/instance-gpu-name":   knownvalue.StringExact("a100"),
					"karpenter.k8s.aws/instance-gpu-memory": knownvalue.StringExact("81920"),
				})),
			},
		}, {
			// A custom layout, strategy defaulted to mixed, GPUs per node given.
			Config: layoutConfig(host, `
  gpu           = "H100-SXM5-80GB"
  gpus_per_node = 4
  profiles      = { "3g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 1 }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("strategy"), knownvalue.StringExact("mixed")),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("valid_config_name"), knownvalue.StringExact("custom-3g.40gb-x1-2g.20gb-x1-1g.10gb-x1")),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("custom_config"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("resources_per_node"), knownvalue.MapExact(map[string]knownvalue.Check{
					"nvidia.com/mig-3g.40gb": knownvalue.Int64Exact(4),
					"nvidia.com/mig-2g.20gb": knownvalue.Int64Exact(4),
					"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(4),
				})),
			},
		}, {
			// Single strategy: MIG devices are nvidia.com/gpu and the product label names the profile.
			Config: layoutConfig(host, `
  instance_type = "p5.48xlarge"
  config        = "all-3g.40gb"
  strategy      = "single"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("resources_per_node"), knownvalue.MapExact(map[string]knownvalue.Check{
					"nvidia.com/gpu": knownvalue.Int64Exact(16),
				})),
				statecheck.ExpectKnownValue(layoutAddr, tfjsonpath.New("node_labels").AtMapKey("nvidia.com/gpu.product"),
					knownvalue.StringRegexp(regexp.MustCompile(`-MIG-3g\.40gb$`))),
			},
		}}
	})
}

func TestMigLayoutDataSource_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"layout does not fit": {`
  gpu      = "A100-SXM4-80GB"
  profiles = { "1g.10gb" = 3, "2g.20gb" = 1, "3g.40gb" = 1 }`,
			`Attribute profiles: MIG layout 3g.40gb \+ 2g.20gb \+ 1g.10gb x3 does not fit\s+on\s+one\s+A100-SXM4-80GB`},
		"3g+3g+1g": {`
  gpu      = "a100"
  profiles = { "3g.40gb" = 2, "1g.10gb" = 1 }`,
			`3g.40gb x2 uses all 8 memory\s+slices; 1g.10gb does not fit`},
		"profile of another model": {`
  gpu      = "a100-40gb"
  profiles = { "1g.10gb" = 1, "3g.40gb" = 1 }`, `has no MIG profile "3g.40gb"`},
		"profile spelling": {`
  gpu      = "a100"
  profiles = { "1G.10GB" = 1 }`, `Attribute profiles\["1G.10GB"\]: "1G.10GB" is not a MIG profile name`},
		"unknown config":     {`gpu = "h100"` + "\n" + `config = "all-2g.12gb"`, `Attribute config: "all-2g.12gb" is not a mig-parted config for`},
		"no MIG":             {`gpu = "l4"` + "\n" + `config = "all-balanced"`, `L4 does not support MIG`},
		"single, mixed":      {`gpu = "a100"` + "\n" + `config = "all-balanced"` + "\n" + `strategy = "single"`, `Attribute strategy: MIG config all-balanced mixes profiles`},
		"unknown gpu":        {`gpu = "mi300x"` + "\n" + `config = "all-disabled"`, `Attribute gpu: unknown GPU model "mi300x"`},
		"wrong instance":     {`gpu = "h100"` + "\n" + `instance_type = "p4d.24xlarge"` + "\n" + `config = "all-disabled"`, `carries A100-SXM4-40GB,\s+not H100-SXM5-80GB`},
		"both config kinds":  {`gpu = "h100"` + "\n" + `config = "all-disabled"` + "\n" + `profiles = {}`, `Invalid Attribute Combination`},
		"instance and count": {`instance_type = "p5.48xlarge"` + "\n" + `gpus_per_node = 8` + "\n" + `config = "all-disabled"`, `cannot be configured together`},
		"bad strategy":       {`gpu = "h100"` + "\n" + `config = "all-disabled"` + "\n" + `strategy = "none"`, `value must be one of`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return layoutConfig(host, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
