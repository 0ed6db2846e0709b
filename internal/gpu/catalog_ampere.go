package gpu

// Ampere data-centre GPUs with MIG: A100 40GB, A100 80GB, A30.
func ampereModels() []*Model {
	return []*Model{
		{
			Name:    "A100-SXM4-40GB",
			Aliases: []string{"a100-40gb", "a100-sxm4-40gb", "a100-40"},
			// "a100" deliberately resolves to the 80GB model (see there).
			Architecture:          "Ampere",
			MemoryGB:              40,
			ProductLabel:          "NVIDIA-A100-SXM4-40GB", // observed on nodes (reference gfd_labels)
			KarpenterGPUName:      "a100",
			KarpenterGPUMemoryMiB: 40960,
			// mig-parted's 40GB filter also lists 0x20B1/0x20F1 (A100 PCIe 40GB)
			// and 0x20F6 (A800 40GB): models of their own (catalog_mig_only.go),
			// as their product labels differ.
			PCIDeviceIDs:  []string{"0x20B010DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names: MIG user guide table "GPU Instance Profiles on A100".
			// 1g.10gb (ID 15) spans 2 memory slices although the guide's table
			// lists its memory fraction as 1/8; the -lgipp size (2) is trusted.
			// It needs a recent driver (mig-parted all-1g.10gb = 4 on 40GB).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"),
			Balanced:      Layout{"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1},
			InstanceTypes: ec2("p4d.24xlarge"),
		},
		{
			Name: "A100-SXM4-80GB",
			// "a100" is ambiguous (Karpenter labels p4d and p4de alike). It
			// resolves to the 80GB model, the one training platforms buy;
			// select 40GB nodes with "a100-40gb" or instance-gpu-memory=40960.
			Aliases:               []string{"a100", "a100-80gb", "a100-sxm4-80gb", "a100-80"},
			Architecture:          "Ampere",
			MemoryGB:              80,
			ProductLabel:          "NVIDIA-A100-SXM4-80GB", // observed on nodes (reference gfd_labels)
			KarpenterGPUName:      "a100",
			KarpenterGPUMemoryMiB: 81920,
			// go-nvml mock and mig-parted's shared 80GB filter list. A100 PCIe
			// 80GB (0x20B5) and the A800s are models of their own (catalog_mig_only.go).
			PCIDeviceIDs:  []string{"0x20B210DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Placements: same profile IDs as A100-40GB (go-nvml mock uses one
			// table for both; the guide's 80GB note lists these names).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
			Balanced:      Layout{"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1},
			InstanceTypes: ec2("p4de.24xlarge"),
		},
		{
			Name:         "A30-24GB",
			Aliases:      []string{"a30", "a30-24gb"},
			Architecture: "Ampere",
			MemoryGB:     24,
			// INFERRED: NVML name "NVIDIA A30" sanitised; no A30 node label was read.
			ProductLabel:  "NVIDIA-A30",
			PCIDeviceIDs:  []string{"0x20B710DE"},
			ComputeSlices: 4,
			MemorySlices:  4,
			MIG: migProfiles(a30Geometry,
				"1g.6gb", "1g.6gb+me", "2g.12gb", "2g.12gb+me", "4g.24gb"),
			Balanced: Layout{"1g.6gb": 2, "2g.12gb": 1},
			// Not offered on AWS (absent from Karpenter's instance-type list).
		},
	}
}
