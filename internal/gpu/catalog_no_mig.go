package gpu

// GPUs without MIG, shared by time-slicing or used whole: A10G, L4, L40S, T4.
// GPU counts and Karpenter labels: aws/karpenter-provider-aws
// instance-types.md (g5/g6/g6e via the reference; g4dn read directly there,
// it is not in the reference).
func inferenceModels() []*Model {
	// Sizes sharing one pattern: 1 GPU up to 16xlarge except 12xlarge (4);
	// 24xlarge 4; 48xlarge 8.
	family := func(prefix string) []InstanceType {
		return []InstanceType{
			{prefix + ".xlarge", 1}, {prefix + ".2xlarge", 1}, {prefix + ".4xlarge", 1},
			{prefix + ".8xlarge", 1}, {prefix + ".12xlarge", 4}, {prefix + ".16xlarge", 1},
			{prefix + ".24xlarge", 4}, {prefix + ".48xlarge", 8},
		}
	}
	return []*Model{
		{
			Name:                  "A10G",
			Aliases:               []string{"a10g-24gb"},
			Architecture:          "Ampere",
			MemoryGB:              24,
			ProductLabel:          "NVIDIA-A10G", // observed on nodes (reference gfd_labels)
			KarpenterGPUName:      "a10g",
			KarpenterGPUMemoryMiB: 22888,
			InstanceTypes:         family("g5"),
		},
		{
			Name:         "L4",
			Aliases:      []string{"l4-24gb"},
			Architecture: "Ada Lovelace",
			MemoryGB:     24,
			// INFERRED: NVML name "NVIDIA L4" sanitised; not read in a source.
			ProductLabel:          "NVIDIA-L4",
			KarpenterGPUName:      "l4",
			KarpenterGPUMemoryMiB: 22888,
			InstanceTypes:         family("g6"),
		},
		{
			Name:                  "L40S",
			Aliases:               []string{"l40s-48gb"},
			Architecture:          "Ada Lovelace",
			MemoryGB:              48,
			ProductLabel:          "NVIDIA-L40S", // observed on nodes (reference gfd_labels)
			KarpenterGPUName:      "l40s",
			KarpenterGPUMemoryMiB: 45776,
			InstanceTypes:         family("g6e"),
		},
		{
			Name:         "T4",
			Aliases:      []string{"t4-16gb", "tesla-t4"},
			Architecture: "Turing",
			MemoryGB:     16,
			// INFERRED: NVML name "Tesla T4" sanitised; not read in a source.
			ProductLabel:          "Tesla-T4",
			KarpenterGPUName:      "t4",
			KarpenterGPUMemoryMiB: 16384,
			// g4dn has no 24xlarge/48xlarge; g4dn.metal has 8 GPUs.
			InstanceTypes: []InstanceType{
				{"g4dn.xlarge", 1}, {"g4dn.2xlarge", 1}, {"g4dn.4xlarge", 1}, {"g4dn.8xlarge", 1},
				{"g4dn.12xlarge", 4}, {"g4dn.16xlarge", 1}, {"g4dn.metal", 8},
			},
		},
	}
}
