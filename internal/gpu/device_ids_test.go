package gpu

import "testing"

func TestModelForPCIDeviceIDs(t *testing.T) {
	for _, m := range Models() {
		if !m.MIGCapable() {
			continue
		}
		// A GPU with two sets of profile names (GB200) answers as its first model.
		want := firstWithProductLabel(m.ProductLabel)
		got, err := ModelForPCIDeviceIDs(m.PCIDeviceIDs)
		if err != nil || got != want {
			t.Errorf("ModelForPCIDeviceIDs(%v) = %v, %v; want %s", m.PCIDeviceIDs, got, err, want.Name)
		}
	}
	if m, err := ModelForPCIDeviceIDs([]string{"0x20b210de"}); err != nil || m.Name != "A100-SXM4-80GB" {
		t.Errorf("lower-case id: got %v, %v", m, err)
	}
	for _, ids := range [][]string{nil, {"0xFFFF10DE"}, {"0x20B210DE", "0x20B010DE"}} {
		if m, err := ModelForPCIDeviceIDs(ids); err == nil {
			t.Errorf("ModelForPCIDeviceIDs(%v) = %s; want an error", ids, m.Name)
		}
	}
}

func TestParseResourceName(t *testing.T) {
	ok := map[string]string{
		"nvidia.com/gpu":            "",
		"nvidia.com/mig-1g.10gb":    "1g.10gb",
		"nvidia.com/mig-1g.10gb.me": "1g.10gb+me",
		"nvidia.com/mig-7g.141gb":   "7g.141gb",
	}
	for name, want := range ok {
		if got, err := ParseResourceName(name); err != nil || got != want {
			t.Errorf("ParseResourceName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"gpu", "nvidia.com/gpu.shared", "nvidia.com/mig-", "nvidia.com/mig-1g", "nvidia.com/mig-1g.10gb+me",
		"nvidia.com/mig-1G.10GB", "nvidia.com/mig- 1g.10gb", "amd.com/gpu", "nvidia.com/mig-0g.10gb"} {
		if p, err := ParseResourceName(name); err == nil {
			t.Errorf("ParseResourceName(%q) = %q; want an error", name, p)
		}
	}
}
