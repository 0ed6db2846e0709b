package pricing_test

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

func TestOnDemand_knownTypes(t *testing.T) {
	for _, tc := range []struct {
		region, it string
		want       float64
	}{
		{"us-east-1", "p4de.24xlarge", 27.44705},
		{"us-east-1", "p5.48xlarge", 55.04},
		{"us-east-1", "P4D.24xlarge", 21.957642},
		{"us-gov-west-1", "g4dn.metal", 9.862},
	} {
		got, err := pricing.OnDemand(tc.region, tc.it)
		if err != nil || got != tc.want {
			t.Errorf("OnDemand(%s, %s) = %v, %v; want %v", tc.region, tc.it, got, err, tc.want)
		}
	}
}

func TestOnDemand_unknownRegionOrType(t *testing.T) {
	_, err := pricing.OnDemand("eu-west-1", "p5.48xlarge")
	if err == nil || !strings.Contains(err.Error(), `no on-demand prices for region "eu-west-1"`) ||
		!strings.Contains(err.Error(), "us-east-1, us-gov-east-1, us-gov-west-1") {
		t.Errorf("unknown region: %v", err)
	}
	_, err = pricing.OnDemand("us-east-1", "p9.huge")
	if err == nil || !strings.Contains(err.Error(), `no on-demand price for instance type "p9.huge" in us-east-1`) ||
		!strings.Contains(err.Error(), "zz_generated.pricing_aws.go (generated 2026-07-20T13:44:30Z)") {
		t.Errorf("unknown type: %v", err)
	}
	// The yuan table is left out.
	if _, err := pricing.OnDemand("cn-north-1", "g4dn.xlarge"); err == nil {
		t.Error("cn-north-1 has prices; its table is in CNY and must stay out")
	}
}

// Every GPU instance type of the catalog has a us-east-1 price, but for those EC2 sells in
// us-east-1 only as capacity blocks (p5e; p6e-gb200, only within UltraServers, which no
// Karpenter price table lists up to v1.15.2). A pool of an unpriced type has null hourly prices
// and a warning naming price_per_hour.
func TestOnDemand_catalogCoveredInDefaultRegion(t *testing.T) {
	unpriced := map[string]bool{"p5e.48xlarge": true, "p6e-gb200.36xlarge": true}
	for _, m := range gpu.Models() {
		for _, it := range m.InstanceTypes {
			_, err := pricing.OnDemand(pricing.DefaultRegion, it.Name)
			if (err != nil) != unpriced[it.Name] {
				t.Errorf("%s: %v (expected unpriced: %v)", it.Name, err, unpriced[it.Name])
			}
		}
	}
}

// SourceVersion and the tables' dates are those of the module go.mod requires.
func TestSource_matchesGoMod(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s*github.com/aws/karpenter-provider-aws ` + regexp.QuoteMeta(pricing.SourceVersion) + `\s*$`).Match(mod) {
		t.Fatalf("go.mod does not require karpenter-provider-aws %s: update SourceVersion and the tables' dates", pricing.SourceVersion)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/aws/karpenter-provider-aws").Output()
	if err != nil {
		t.Skipf("cannot locate the module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "pkg", "providers", "pricing")
	for _, tbl := range pricing.Tables {
		src, err := os.ReadFile(filepath.Join(dir, tbl.File))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "// generated at "+tbl.GeneratedAt) {
			t.Errorf("%s: header does not say generated at %s", tbl.File, tbl.GeneratedAt)
		}
	}
	if got := pricing.Source("us-east-1"); got != "karpenter-provider-aws v1.15.2 zz_generated.pricing_aws.go (generated 2026-07-20T13:44:30Z)" {
		t.Errorf("Source(us-east-1) = %q", got)
	}
}

func expose(t *testing.T, spec gpu.NodeSpec) *gpu.Exposure {
	t.Helper()
	e, err := gpu.Expose(spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestUnitPrices(t *testing.T) {
	const gpuPrice = 27.44705 / 8 // one A100 80GB of a p4de.24xlarge
	for _, tc := range []struct {
		name string
		spec gpu.NodeSpec
		want map[string]float64
	}{
		{"whole GPU", gpu.NodeSpec{InstanceType: "p4de.24xlarge"},
			map[string]float64{"nvidia.com/gpu": gpuPrice}},
		{"all-1g.10gb: a seventh", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-1g.10gb", Strategy: gpu.StrategyMixed},
			map[string]float64{"nvidia.com/mig-1g.10gb": gpuPrice / 7}},
		{"all-balanced: by compute slices", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-balanced", Strategy: gpu.StrategyMixed},
			map[string]float64{"nvidia.com/mig-1g.10gb": gpuPrice / 7, "nvidia.com/mig-2g.20gb": gpuPrice * 2 / 7, "nvidia.com/mig-3g.40gb": gpuPrice * 3 / 7}},
		{"idle slice shared: 3g.40gb x2", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "3g.40gb=2", Strategy: gpu.StrategyMixed},
			map[string]float64{"nvidia.com/mig-3g.40gb": gpuPrice / 2}},
		{"media extension counts its slice", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "1g.10gb+me=1,3g.40gb=1", Strategy: gpu.StrategyMixed},
			map[string]float64{"nvidia.com/mig-1g.10gb.me": gpuPrice / 4, "nvidia.com/mig-3g.40gb": gpuPrice * 3 / 4}},
		{"single strategy", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-2g.20gb", Strategy: gpu.StrategySingle},
			map[string]float64{"nvidia.com/gpu": gpuPrice / 3}},
		{"time-slicing replicas", gpu.NodeSpec{InstanceType: "p4de.24xlarge", TimeSlicing: &gpu.TimeSlicing{Replicas: 4}},
			map[string]float64{"nvidia.com/gpu": gpuPrice / 4}},
		{"MIG on, no instances", gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-enabled", Strategy: gpu.StrategyMixed},
			map[string]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := expose(t, tc.spec)
			got := pricing.UnitPrices(e, gpuPrice)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			sum := 0.0
			for r, p := range tc.want {
				if !near(got[r], p) {
					t.Errorf("%s = %v, want %v", r, got[r], p)
				}
				sum += got[r] * float64(e.ResourcesPerGPU[r])
			}
			if len(got) > 0 && !near(sum, gpuPrice) {
				t.Errorf("the units of one GPU cost %v together, want the GPU's %v", sum, gpuPrice)
			}
		})
	}
}

// On a node split into parts, each part's GPUs pay for themselves, and a resource two parts
// expose at different prices takes the higher.
func TestUnitPrices_parts(t *testing.T) {
	const gpuPrice = 27.44705 / 8
	e := expose(t, gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "0-3:all-balanced;4-5:all-1g.10gb;6-7:all-disabled",
		Strategy: gpu.StrategyMixed})
	want := map[string]float64{"nvidia.com/gpu": gpuPrice, "nvidia.com/mig-1g.10gb": gpuPrice / 7,
		"nvidia.com/mig-2g.20gb": gpuPrice * 2 / 7, "nvidia.com/mig-3g.40gb": gpuPrice * 3 / 7}
	got := pricing.UnitPrices(e, gpuPrice)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	node := 0.0
	for r, p := range want {
		if !near(got[r], p) {
			t.Errorf("%s = %v, want %v", r, got[r], p)
		}
		node += got[r] * float64(e.ResourcesPerNode[r])
	}
	if !near(node, 8*gpuPrice) {
		t.Errorf("the units of the node cost %v together, want its 8 GPUs' %v", node, 8*gpuPrice)
	}

	e = expose(t, gpu.NodeSpec{InstanceType: "p4de.24xlarge", MIG: "0-3:3g.40gb=1;4-7:all-3g.40gb", Strategy: gpu.StrategyMixed})
	if got := pricing.UnitPrices(e, gpuPrice)["nvidia.com/mig-3g.40gb"]; !near(got, gpuPrice) {
		t.Errorf("3g.40gb alone on a GPU (all of it) and under all-3g.40gb (half) costs %v, want the higher, %v", got, gpuPrice)
	}
}
