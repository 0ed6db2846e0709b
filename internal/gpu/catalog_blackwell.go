package gpu

// Blackwell GPUs with MIG: B200. (B300 and GB200 are left out until their
// profile names are confirmed per driver; the reference notes GB200 SKUs
// reporting different 1g names.)
func blackwellModels() []*Model {
	return []*Model{
		{
			Name:         "B200-180GB",
			Aliases:      []string{"b200", "b200-180gb"},
			Architecture: "Blackwell",
			// 180 GB as the MIG 7g.180gb profile and AWS (183359 MiB) show it.
			MemoryGB:              180,
			ProductLabel:          "NVIDIA-B200", // observed on nodes (reference gfd_labels)
			KarpenterGPUName:      "b200",
			KarpenterGPUMemoryMiB: 183359,
			PCIDeviceIDs:          []string{"0x290110DE"},
			ComputeSlices:         7,
			MemorySlices:          8,
			// Names and counts: MIG user guide table for B200 and mig-parted
			// config-default; IDs 19/20/15/14 seen in real -lgip output
			// (mig-parted#166, gpu-operator#1242). INFERRED: IDs 9/5/0 and all
			// placements (no -lgipp output read; go-nvml's B200 mock disagrees
			// with every real table and is not used).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.23gb", "1g.23gb+me", "1g.45gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb"),
			Balanced:      Layout{"1g.23gb": 2, "2g.45gb": 1, "3g.90gb": 1},
			InstanceTypes: ec2("p6-b200.48xlarge"),
		},
	}
}
