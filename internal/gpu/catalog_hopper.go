package gpu

// Hopper GPUs with MIG: H100 SXM5 80GB, H100 PCIe 80GB, H100 NVL 94GB, H100 96GB (GH200),
// GH200 144GB, H200. Their other SKUs (H800, H20, ...) are in catalog_mig_only.go.
func hopperModels() []*Model {
	// H100 80GB profile names: MIG user guide "GPU Instance Profiles on H100"
	// and mig-parted builder_test.go. Placements are INFERRED: same profile
	// IDs and counts as A100 and H100 NVL; no -lgipp output for H100 80GB was
	// read (the go-nvml H100 mock table disagrees with hardware; not used).
	h100Profiles := migProfiles(sevenSliceGeometry,
		"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb")
	h100Balanced := Layout{"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1}

	return []*Model{
		{
			Name: "H100-SXM5-80GB",
			// "h100" is ambiguous (SXM5, PCIe, NVL). It resolves to SXM5, the
			// H100 that AWS p5 instances carry and Karpenter labels "h100".
			Aliases:      []string{"h100", "h100-80gb", "h100-sxm5-80gb", "h100-sxm", "h100-sxm5", "h100-80gb-hbm3", "NVIDIA H100 80GB HBM3"},
			Architecture: "Hopper",
			MemoryGB:     80,
			// Observed on nodes (reference gfd_labels): NVML name "NVIDIA H100 80GB HBM3".
			ProductLabel:          "NVIDIA-H100-80GB-HBM3",
			KarpenterGPUName:      "h100",
			KarpenterGPUMemoryMiB: 81920,
			PCIDeviceIDs:          []string{"0x233010DE"}, // go-nvml mock H100 SXM5 80GB
			ComputeSlices:         7,
			MemorySlices:          8,
			MIG:                   h100Profiles,
			Balanced:              h100Balanced,
			// p5.4xlarge: aws/karpenter-provider-aws#8368 saw EC2 report 0 GPUs
			// for it in Aug 2025; the current reference page says 1.
			InstanceTypes: ec2("p5.48xlarge", "p5.4xlarge"),
		},
		{
			Name:         "H100-PCIe-80GB",
			Aliases:      []string{"h100-pcie", "h100-pcie-80gb"},
			Architecture: "Hopper",
			MemoryGB:     80,
			// INFERRED: NVML name "NVIDIA H100 PCIe" sanitised; not read in a source.
			ProductLabel: "NVIDIA-H100-PCIe",
			// 0x2331 is in mig-parted's 80GB filter list and is "H100 PCIe" in the
			// PCI ID database mig-parted vendors (see catalog_mig_only.go).
			PCIDeviceIDs:  []string{"0x233110DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			MIG:           h100Profiles,
			Balanced:      h100Balanced,
		},
		{
			Name:         "H100-NVL-94GB",
			Aliases:      []string{"h100-nvl", "h100-nvl-94gb", "h100-94gb"},
			Architecture: "Hopper",
			MemoryGB:     94,
			// INFERRED: NVML name "NVIDIA H100 NVL" sanitised; not read in a source.
			ProductLabel: "NVIDIA-H100-NVL",
			// 0x233A (H800 NVL) shares the mig-parted filter but not the name.
			PCIDeviceIDs:  []string{"0x232110DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names and counts: mig-parted config-default; placements: real
			// -lgipp output (Colfax Research) with IDs 19,20,15,14,9,5,0.
			MIG: migProfiles(sevenSliceGeometry,
				"1g.12gb", "1g.12gb+me", "1g.24gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb"),
			Balanced: Layout{"1g.12gb": 2, "2g.24gb": 1, "3g.47gb": 1},
			// No AWS instance type carries H100 NVL.
		},
		{
			// The H100 of GH200 Grace Hopper (96GB): MIG user guide "Supported GPUs" ("H100 on
			// GH200", 96GB, 7 instances). The other GPUs of mig-parted's 96GB filter (H100 96GB,
			// PG506, H20) are models of their own (catalog_mig_only.go).
			Name:         "H100-96GB",
			Aliases:      []string{"h100-96gb", "gh200", "gh200-96gb", "gh200-480gb", "h100-on-gh200"},
			Architecture: "Hopper",
			MemoryGB:     96,
			// INFERRED: NVML name "NVIDIA GH200 480GB" sanitised; not read in a source.
			ProductLabel: "NVIDIA-GH200-480GB",
			// Of the four ids mig-parted's 96GB filter lists (0x2342, 0x233D, 0x20B6,
			// 0x2329), 0x2342 is "GH200 120GB / 480GB" in the PCI ID database it vendors.
			PCIDeviceIDs:  []string{"0x234210DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names and counts: mig-parted config-default ("H100-96GB, PG506-96GB, GH200")
			// and builder_test.go's H100-96GB table. INFERRED: profile IDs and placements (no
			// -lgip output read for it; same names and counts as H100 NVL's, read).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.12gb", "1g.12gb+me", "1g.24gb", "2g.24gb", "3g.48gb", "4g.48gb", "7g.96gb"),
			Balanced: Layout{"1g.12gb": 2, "2g.24gb": 1, "3g.48gb": 1},
		},
		{
			Name:         "GH200-144GB",
			Aliases:      []string{"gh200-144gb", "gh200-144g-hbm3e"},
			Architecture: "Hopper",
			MemoryGB:     144,
			// INFERRED: NVML name "NVIDIA GH200 144G HBM3e" (as mig-parted's comments name the
			// GPU) sanitised; not observed on a node.
			ProductLabel:  "NVIDIA-GH200-144G-HBM3e",
			PCIDeviceIDs:  []string{"0x234810DE"}, // mig-parted#139
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names, IDs 19/20/15/14 and counts: real -lgip in mig-parted#139 and
			// config-default. INFERRED: IDs 9/5/0 and all placements.
			MIG: migProfiles(sevenSliceGeometry,
				"1g.18gb", "1g.18gb+me", "1g.36gb", "2g.36gb", "3g.72gb", "4g.72gb", "7g.144gb"),
			Balanced: Layout{"1g.18gb": 2, "2g.36gb": 1, "3g.72gb": 1},
		},
		{
			Name:         "H200-141GB",
			Aliases:      []string{"h200", "h200-141gb", "h200-sxm", "h200-sxm5"},
			Architecture: "Hopper",
			MemoryGB:     141,
			// Observed on nodes (reference gfd_labels). H200 NVL (0x233B) has
			// the same MIG profiles but reports "NVIDIA H200 NVL": a model of its
			// own (catalog_mig_only.go).
			ProductLabel:          "NVIDIA-H200",
			KarpenterGPUName:      "h200",
			KarpenterGPUMemoryMiB: 144384,
			PCIDeviceIDs:          []string{"0x233510DE"},
			ComputeSlices:         7,
			MemorySlices:          8,
			// Names and counts: MIG user guide table for H200 and mig-parted
			// config-default; IDs 19/20/15/14/9/5 seen in real -lgip output
			// (mig-parted#120). INFERRED: ID 0 for 7g.141gb and all placements
			// (no -lgipp output read).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"),
			Balanced:      Layout{"1g.18gb": 2, "2g.35gb": 1, "3g.71gb": 1},
			InstanceTypes: ec2("p5e.48xlarge", "p5en.48xlarge"),
		},
	}
}
