package gpu

// GPUs with MIG that no EC2 instance type carries but NVIDIA's default mig-parted config names
// (testdata, checked by TestNVIDIADefaultConfig): other SKUs of the catalog's MIG GPUs. They can be
// named in MIG configs, not in node pools.
//
// Each shares one device-filter entry of that config with the model it is built from (the all-
// balanced entry and the all-1g.10gb of its memory size), so its MIG profiles, counts and
// layouts are that model's: a different GPU there would need an entry of its own. Placements are
// therefore those of the model too (INFERRED for these SKUs: no -lgipp output of them was read).
//
// PCI device ids and the SKU each is: the PCI ID database mig-parted vendors
// (vendor/github.com/NVIDIA/go-nvlib/pkg/pciids/default_pci.ids at mig-parted bd7160f4, version
// 2025.07.11). Product labels (the NVML name, spaces as "-") were seen in node labels or
// nvidia-smi output quoted in public repositories where so noted; the others are INFERRED from the
// database's name and a sibling's spelling.
func migOnlyModels() []*Model {
	a100x40, a100x80, h100x80 := like("A100-SXM4-40GB"), like("A100-SXM4-80GB"), like("H100-SXM5-80GB")
	h100nvl, h100x96, h200 := like("H100-NVL-94GB"), like("H100-96GB"), like("H200-141GB")
	return []*Model{
		a100x40(&Model{Name: "A100-PCIe-40GB", Aliases: []string{"a100-pcie-40gb"}, Architecture: "Ampere", MemoryGB: 40,
			ProductLabel: "NVIDIA-A100-PCIE-40GB",                // seen in node labels
			PCIDeviceIDs: []string{"0x20B110DE", "0x20F110DE"}}), // both "A100 PCIe 40GB"
		a100x40(&Model{Name: "A800-PCIe-40GB", Aliases: []string{"a800-40gb", "a800-pcie-40gb"}, Architecture: "Ampere", MemoryGB: 40,
			ProductLabel: "NVIDIA-A800-40GB-PCIe", // INFERRED
			PCIDeviceIDs: []string{"0x20F610DE"}}),
		a100x80(&Model{Name: "A100-PCIe-80GB", Aliases: []string{"a100-pcie", "a100-pcie-80gb"}, Architecture: "Ampere", MemoryGB: 80,
			ProductLabel: "NVIDIA-A100-80GB-PCIe", // seen in node labels
			PCIDeviceIDs: []string{"0x20B510DE"}}),
		// "a800" is the SXM4 80GB, as "a100" is.
		a100x80(&Model{Name: "A800-SXM4-80GB", Aliases: []string{"a800", "a800-80gb", "a800-sxm4-80gb"}, Architecture: "Ampere", MemoryGB: 80,
			ProductLabel: "NVIDIA-A800-SXM4-80GB", // seen in nvidia-smi output
			PCIDeviceIDs: []string{"0x20F310DE"}}),
		a100x80(&Model{Name: "A800-PCIe-80GB", Aliases: []string{"a800-pcie", "a800-pcie-80gb"}, Architecture: "Ampere", MemoryGB: 80,
			ProductLabel: "NVIDIA-A800-80GB-PCIe", // seen in nvidia-smi output
			PCIDeviceIDs: []string{"0x20F510DE"}}),
		// The H800s share the H100 80GB's entry (mig-parted: "H100-80GB, H800-80GB, A100-80GB,
		// A800-80GB").
		h100x80(&Model{Name: "H800-SXM5-80GB", Aliases: []string{"h800", "h800-80gb", "h800-sxm5-80gb"}, Architecture: "Hopper", MemoryGB: 80,
			ProductLabel: "NVIDIA-H800", // seen in node labels; the database's name is "H800"
			PCIDeviceIDs: []string{"0x232410DE"}}),
		h100x80(&Model{Name: "H800-PCIe-80GB", Aliases: []string{"h800-pcie", "h800-pcie-80gb"}, Architecture: "Hopper", MemoryGB: 80,
			ProductLabel: "NVIDIA-H800-PCIe", // INFERRED, after H100 PCIe's
			PCIDeviceIDs: []string{"0x232210DE"}}),
		h100nvl(&Model{Name: "H800-NVL-94GB", Aliases: []string{"h800-nvl", "h800-nvl-94gb", "h800l-94gb"}, Architecture: "Hopper", MemoryGB: 94,
			ProductLabel: "NVIDIA-H800-NVL", // INFERRED; the database says "H800L 94GB"
			PCIDeviceIDs: []string{"0x233A10DE"}}),
		// NVIDIA's all-1g.35gb entry leaves H200 NVL out (its filter has only 0x2335, to keep GB300's
		// own 1g.35gb apart), so a 1g.35gb x4 layout on it is a custom config.
		withCounts(h200(&Model{Name: "H200-NVL-141GB", Aliases: []string{"h200-nvl", "h200-nvl-141gb"}, Architecture: "Hopper", MemoryGB: 141,
			ProductLabel: "NVIDIA-H200-NVL", // seen in node labels
			PCIDeviceIDs: []string{"0x233B10DE"}}), map[string]int{"1g.35gb": 0}),
		// Named apart from H100-96GB, GH200's H100, which had the name first.
		h100x96(&Model{Name: "H100-96GB-HBM3", Aliases: []string{"h100-96gb-hbm3"}, Architecture: "Hopper", MemoryGB: 96,
			ProductLabel: "NVIDIA-H100-96GB-HBM3", // INFERRED; the database says "H100 96GB"
			PCIDeviceIDs: []string{"0x233D10DE"}}),
		// An A100 board (the database: "GA100GL [PG506-232]") that mig-parted lists as "PG506-96GB"
		// with the 96GB GPUs.
		h100x96(&Model{Name: "PG506-96GB", Aliases: []string{"pg506", "pg506-96gb", "pg506-232"}, Architecture: "Ampere", MemoryGB: 96,
			ProductLabel: "NVIDIA-PG506-232", // INFERRED from the database's name
			PCIDeviceIDs: []string{"0x20B610DE"}}),
		h100x96(&Model{Name: "H20-96GB", Aliases: []string{"h20", "h20-96gb"}, Architecture: "Hopper", MemoryGB: 96,
			ProductLabel: "NVIDIA-H20", // seen in node labels (with nvidia.com/gpu.memory 98304)
			PCIDeviceIDs: []string{"0x232910DE"}}),
	}
}

// like returns a function that gives a new model the MIG geometry, layouts and named-config
// counts of the catalog model named base.
func like(base string) func(*Model) *Model {
	var b *Model
	for _, fam := range [][]*Model{ampereModels(), hopperModels(), blackwellModels()} {
		for _, m := range fam {
			if m.Name == base {
				b = m
			}
		}
	}
	if b == nil {
		panic("gpu catalog: no model " + base)
	}
	return func(m *Model) *Model {
		m.ComputeSlices, m.MemorySlices, m.MIG, m.Balanced = b.ComputeSlices, b.MemorySlices, b.MIG, b.Balanced
		m.NamedConfigCounts = b.NamedConfigCounts
		return m
	}
}

func withCounts(m *Model, counts map[string]int) *Model {
	m.NamedConfigCounts = counts
	return m
}
