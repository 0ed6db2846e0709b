package gpu

// GPUs without MIG, shared by time-slicing or used whole: A10G, L4, L40S, T4.
// Karpenter labels: aws/karpenter-provider-aws instance-types.md (g5/g6/g6e
// via the reference; g4dn read directly there); instance types: instance_types.go.
func inferenceModels() []*Model {
	family := func(prefix string) []InstanceType {
		return ec2(prefix+".xlarge", prefix+".2xlarge", prefix+".4xlarge", prefix+".8xlarge",
			prefix+".12xlarge", prefix+".16xlarge", prefix+".24xlarge", prefix+".48xlarge")
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
			InstanceTypes: ec2("g4dn.xlarge", "g4dn.2xlarge", "g4dn.4xlarge", "g4dn.8xlarge",
				"g4dn.12xlarge", "g4dn.16xlarge", "g4dn.metal"),
		},
	}
}
