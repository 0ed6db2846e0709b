package gpu

import (
	"fmt"
	"strings"
	"testing"
)

func TestLookupAliases(t *testing.T) {
	cases := []struct{ alias, want string }{
		{"A100-SXM4-40GB", "A100-SXM4-40GB"},
		{"a100-40gb", "A100-SXM4-40GB"},
		{"NVIDIA-A100-SXM4-40GB", "A100-SXM4-40GB"},
		{"NVIDIA A100-SXM4-40GB", "A100-SXM4-40GB"}, // NVML name, with a space
		{"a100", "A100-SXM4-80GB"},                  // ambiguous: documented choice
		{"A100-80GB", "A100-SXM4-80GB"},
		{"nvidia-a100-sxm4-80gb", "A100-SXM4-80GB"},
		{"h100", "H100-SXM5-80GB"}, // ambiguous: documented choice
		{"H100 80GB HBM3", "H100-SXM5-80GB"},
		{"NVIDIA-H100-80GB-HBM3", "H100-SXM5-80GB"},
		{"h100-pcie", "H100-PCIe-80GB"},
		{"H100_NVL", "H100-NVL-94GB"},
		{"h200", "H200-141GB"},
		{"NVIDIA-H200", "H200-141GB"},
		{"B200", "B200-180GB"},
		{"a30", "A30-24GB"},
		{"a10g", "A10G"},
		{"NVIDIA-A10G", "A10G"},
		{"l4", "L4"},
		{"L40S", "L40S"},
		{"t4", "T4"},
		{"Tesla-T4", "T4"},
		{"  H200-141GB  ", "H200-141GB"},
		{"gh200", "H100-96GB"},
		{"NVIDIA-GH200-144G-HBM3e", "GH200-144GB"},
		{"gb200", "GB200-186GB"},
		{"NVIDIA-GB200", "GB200-186GB"}, // shared with GB200-189GB; the first answers
		{"gb200-189gb", "GB200-189GB"},
		{"b300", "B300-269GB"},
		{"GB300", "GB300-278GB"},
		{"NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX-PRO-6000-96GB"},
		{"rtx-pro-server-6000", "RTX-PRO-6000-96GB"},
		{"rtx-pro-4500", "RTX-PRO-4500-32GB"},
		{"v100", "V100-SXM2-16GB"},
		{"v100-32gb", "V100-SXM2-32GB"},
		{"t4g", "T4G"},
		// SKUs NVIDIA's default mig-parted config names that no EC2 type carries.
		{"A800", "A800-SXM4-80GB"},
		{"a800-40gb", "A800-PCIe-40GB"},
		{"H800", "H800-SXM5-80GB"},
		{"h800-pcie", "H800-PCIe-80GB"},
		{"A100 PCIe", "A100-PCIe-80GB"}, // as "a100" is the 80GB
		{"NVIDIA-A100-PCIE-40GB", "A100-PCIe-40GB"},
		{"H200 NVL", "H200-NVL-141GB"},
		{"H800 NVL", "H800-NVL-94GB"},
		{"H100 96GB", "H100-96GB"}, // GH200's; the PCIe-id SKU is H100-96GB-HBM3
		{"h100-96gb-hbm3", "H100-96GB-HBM3"},
		{"PG506", "PG506-96GB"},
		{"H20", "H20-96GB"},
	}
	for _, c := range cases {
		m, err := Lookup(c.alias)
		if err != nil {
			t.Errorf("Lookup(%q): %v", c.alias, err)
			continue
		}
		if m.Name != c.want {
			t.Errorf("Lookup(%q) = %s, want %s", c.alias, m.Name, c.want)
		}
	}
}

func TestLookupUnknownListsModels(t *testing.T) {
	_, err := Lookup("mi300x")
	if err == nil {
		t.Fatal("Lookup(mi300x) succeeded")
	}
	for _, m := range Models() {
		if !strings.Contains(err.Error(), m.Name) {
			t.Errorf("error %q does not list %s", err, m.Name)
		}
	}
}

func TestEveryModelFindableByItsNames(t *testing.T) {
	for _, m := range Models() {
		for _, a := range append([]string{m.Name, m.ProductLabel, strings.ToUpper(m.Name)}, m.Aliases...) {
			got, err := Lookup(a)
			want := m
			if a == m.ProductLabel {
				want = firstWithProductLabel(a)
			}
			if err != nil || got != want {
				t.Errorf("Lookup(%q) = %v, %v; want %s", a, got, err, want.Name)
			}
		}
	}
}

// firstWithProductLabel is the model a shared product label resolves to.
func firstWithProductLabel(label string) *Model {
	for _, m := range Models() {
		if m.ProductLabel == label {
			return m
		}
	}
	return nil
}

// Only models of one GPU under two sets of MIG profile names share a product label, and then
// their PCI ids too; every other pair differs in both.
func TestSharedProductLabels(t *testing.T) {
	shared := 0
	for i, a := range Models() {
		for _, b := range Models()[i+1:] {
			sameIDs := len(a.PCIDeviceIDs) > 0 && strings.Join(normalizeIDs(a.PCIDeviceIDs), ",") == strings.Join(normalizeIDs(b.PCIDeviceIDs), ",")
			if (a.ProductLabel == b.ProductLabel) != sameIDs {
				t.Errorf("%s and %s: same product label %v, same PCI ids %v", a.Name, b.Name, a.ProductLabel == b.ProductLabel, sameIDs)
			}
			if sameIDs {
				shared++
			}
		}
	}
	if shared != 1 {
		t.Errorf("%d pairs of models share a GPU; the catalog has one (GB200)", shared)
	}
}

func TestModelForInstanceType(t *testing.T) {
	cases := []struct {
		it, model string
		gpus      int
	}{
		{"p4d.24xlarge", "A100-SXM4-40GB", 8},
		{"p4de.24xlarge", "A100-SXM4-80GB", 8},
		{"p5.48xlarge", "H100-SXM5-80GB", 8},
		{"p5.4xlarge", "H100-SXM5-80GB", 1},
		{"p5e.48xlarge", "H200-141GB", 8},
		{"P5EN.48XLARGE", "H200-141GB", 8},
		{"p6-b200.48xlarge", "B200-180GB", 8},
		{"g5.xlarge", "A10G", 1},
		{"g5.12xlarge", "A10G", 4},
		{"g5.48xlarge", "A10G", 8},
		{"g6.24xlarge", "L4", 4},
		{"g6e.48xlarge", "L40S", 8},
		{"g4dn.xlarge", "T4", 1},
		{"g4dn.12xlarge", "T4", 4},
		{"g4dn.metal", "T4", 8},
		{"gr6.8xlarge", "L4", 1},
		{"g5g.16xlarge", "T4G", 2},
		{"p3.8xlarge", "V100-SXM2-16GB", 4},
		{"p3dn.24xlarge", "V100-SXM2-32GB", 8},
		{"p6-b300.48xlarge", "B300-269GB", 8},
		{"p6e-gb200.36xlarge", "GB200-186GB", 4},
		{"g7e.24xlarge", "RTX-PRO-6000-96GB", 4},
		{"g7.12xlarge", "RTX-PRO-4500-32GB", 2},
	}
	for _, c := range cases {
		m, it, err := ModelForInstanceType(c.it)
		if err != nil {
			t.Errorf("%s: %v", c.it, err)
			continue
		}
		if m.Name != c.model || it.GPUs != c.gpus {
			t.Errorf("%s = %s x%d, want %s x%d", c.it, m.Name, it.GPUs, c.model, c.gpus)
		}
	}
	if _, _, err := ModelForInstanceType("m5.large"); err == nil || !strings.Contains(err.Error(), "p4de.24xlarge") {
		t.Errorf("m5.large: want error listing GPU instance types, got %v", err)
	}
}

// Every row of the EC2 table carries a model of the catalog, so no GPU instance type is
// listed without the GPU it offers.
func TestEveryInstanceTypeHasAModel(t *testing.T) {
	for _, it := range ec2InstanceTypes {
		if _, _, err := ModelForInstanceType(it.Name); err != nil {
			t.Errorf("%s: %v", it.Name, err)
		}
	}
}

// TestCatalogIntegrity checks the tables against each other so that a typo
// in one fact cannot pass silently.
func TestCatalogIntegrity(t *testing.T) {
	seenIT := map[string]string{}
	for _, m := range Models() {
		if m.ProductLabel == "" || m.MemoryGB <= 0 {
			t.Errorf("%s: missing product label or memory", m.Name)
		}
		for _, it := range m.InstanceTypes {
			if prev, dup := seenIT[it.Name]; dup {
				t.Errorf("instance type %s on %s and %s", it.Name, prev, m.Name)
			}
			seenIT[it.Name] = m.Name
			if it.GPUs < 1 {
				t.Errorf("%s: %s has %d GPUs", m.Name, it.Name, it.GPUs)
			}
		}
		// GB200 alone is on EC2 without known Karpenter labels (instance_types.go).
		if (m.KarpenterGPUName == "") != (m.KarpenterGPUMemoryMiB == 0) ||
			(m.KarpenterGPUName == "") != (len(m.InstanceTypes) == 0) && m.Name != "GB200-186GB" {
			t.Errorf("%s: Karpenter name, memory and instance types must be set together", m.Name)
		}
		if !m.MIGCapable() {
			if m.MemorySlices != 0 || m.Balanced != nil || len(m.PCIDeviceIDs) != 0 {
				t.Errorf("%s: MIG data on a model without MIG", m.Name)
			}
			continue
		}
		if len(m.MIG) > len(countKey{}) {
			t.Errorf("%s: %d profiles, countKey holds %d", m.Name, len(m.MIG), len(countKey{}))
		}
		if len(m.PCIDeviceIDs) == 0 {
			t.Errorf("%s: MIG model without PCI ids", m.Name)
		}
		if m.Balanced == nil && m.Name != "GB200-189GB" { // see its comment
			t.Errorf("%s: MIG model without all-balanced", m.Name)
		}
		top := m.MIG[len(m.MIG)-1]
		if top.ComputeSlices != m.ComputeSlices || top.MemorySlices != m.MemorySlices || top.MemoryGB != m.MemoryGB {
			t.Errorf("%s: full-GPU profile %s disagrees with the model geometry", m.Name, top.Name)
		}
		for _, p := range m.MIG {
			for _, s := range p.Starts {
				if s < 0 || s+p.MemorySlices > m.MemorySlices {
					t.Errorf("%s %s: start %d+%d outside %d memory slices", m.Name, p.Name, s, p.MemorySlices, m.MemorySlices)
				}
			}
			if p.ComputeSlices > p.MemorySlices && m.MemorySlices >= m.ComputeSlices {
				t.Errorf("%s %s: more compute than memory slices", m.Name, p.Name)
			}
		}
		if err := ValidateLayout(m, m.Balanced); m.Balanced != nil && err != nil {
			t.Errorf("%s all-balanced: %v", m.Name, err)
		}
	}
}

// Karpenter's instance-gpu-name finds a model carrying it (for a100, v100: the documented one).
func TestLookupByKarpenterGPUName(t *testing.T) {
	for _, m := range Models() {
		if m.KarpenterGPUName == "" {
			continue
		}
		got, err := Lookup(m.KarpenterGPUName)
		if err != nil || got.KarpenterGPUName != m.KarpenterGPUName {
			t.Errorf("Lookup(%q) = %v, %v", m.KarpenterGPUName, got, err)
		}
	}
}

// A profile the model lacks is refused naming the models it belongs to and, when one exists, the
// model's profile of the same share of a GPU; A30's quarters have no equal on a 7-slice A100.
func TestUnknownProfileNamesOwnersAndTheSameShare(t *testing.T) {
	cases := []struct{ model, profile, want, notWant string }{
		{"a100-80gb", "1g.5gb", `"1g.5gb" is a profile of A100-SXM4-40GB, A100-PCIe-40GB, A800-PCIe-40GB; on the A100-SXM4-80GB the same share of a GPU is 1g.10gb`, ""},
		{"a100-40gb", "3g.40gb", `on the A100-SXM4-40GB the same share of a GPU is 3g.20gb`, ""},
		{"a100-80gb", "1g.10gb.me", "", "no MIG profile"},
		{"a100-80gb", "1g.6gb", `"1g.6gb" is a profile of A30-24GB`, "same share"},
		{"a100-80gb", "2g.7gb", `A100-SXM4-80GB has no MIG profile "2g.7gb"; its profiles are 1g.10gb,`, "is a profile of"},
	}
	for _, c := range cases {
		m, err := Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Profile(c.profile)
		got := fmt.Sprint(err)
		if c.want == "" && err != nil || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s %s: got %q, want it to contain %q", c.model, c.profile, got, c.want)
		}
		if c.notWant != "" && strings.Contains(got, c.notWant) {
			t.Errorf("%s %s: got %q, want no %q", c.model, c.profile, got, c.notWant)
		}
		if lerr := ValidateLayout(m, Layout{c.profile: 1}); c.want != "" && fmt.Sprint(lerr) != got {
			t.Errorf("%s %s: layout error %q, want the profile's %q", c.model, c.profile, lerr, got)
		}
	}
}
