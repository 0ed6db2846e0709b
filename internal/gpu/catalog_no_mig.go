package gpu

// GPUs without MIG, shared by time-slicing or used whole: A10G, L4, L40S, T4, T4G, V100, RTX PRO
// 4500. Karpenter labels: aws/karpenter-provider-aws instance-types.md (g5/g6/g6e via the
// reference; the others read directly there); instance types: instance_types.go.
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
			// gr6: the same L4 with more memory per vCPU.
			InstanceTypes: append(family("g6"), ec2("gr6.4xlarge", "gr6.8xlarge")...),
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
		{
			Name:         "T4G",
			Aliases:      []string{"t4g-16gb"},
			Architecture: "Turing",
			MemoryGB:     16,
			// INFERRED: NVML name "NVIDIA T4G" sanitised; not read in a source.
			ProductLabel:          "NVIDIA-T4G",
			KarpenterGPUName:      "t4g",
			KarpenterGPUMemoryMiB: 16384,
			// g5g: Graviton (arm64) hosts.
			InstanceTypes: ec2("g5g.xlarge", "g5g.2xlarge", "g5g.4xlarge", "g5g.8xlarge", "g5g.16xlarge", "g5g.metal"),
		},
		{
			Name:         "V100-SXM2-16GB",
			Aliases:      []string{"v100", "v100-16gb", "tesla-v100"},
			Architecture: "Volta",
			MemoryGB:     16,
			// INFERRED: NVML name "Tesla V100-SXM2-16GB" sanitised; not read in a source.
			ProductLabel:          "Tesla-V100-SXM2-16GB",
			KarpenterGPUName:      "v100",
			KarpenterGPUMemoryMiB: 16384,
			InstanceTypes:         ec2("p3.2xlarge", "p3.8xlarge", "p3.16xlarge"),
		},
		{
			Name:         "V100-SXM2-32GB",
			Aliases:      []string{"v100-32gb"},
			Architecture: "Volta",
			MemoryGB:     32,
			// INFERRED: NVML name "Tesla V100-SXM2-32GB" sanitised; not read in a source.
			ProductLabel:          "Tesla-V100-SXM2-32GB",
			KarpenterGPUName:      "v100",
			KarpenterGPUMemoryMiB: 32768,
			InstanceTypes:         ec2("p3dn.24xlarge"),
		},
		{
			// The MIG user guide lists RTX PRO 4500 Blackwell as MIG-capable (2 instances),
			// but no MIG profile of it is in NVIDIA's default mig-parted config or was read
			// elsewhere, so the catalog offers it whole or time-sliced only.
			Name:         "RTX-PRO-4500-32GB",
			Aliases:      []string{"rtx-pro-4500", "rtx-pro-4500-blackwell"},
			Architecture: "Blackwell",
			MemoryGB:     32,
			// INFERRED: NVML name "NVIDIA RTX PRO 4500 Blackwell Server Edition", after the
			// RTX PRO 6000's; not read in a source.
			ProductLabel:          "NVIDIA-RTX-PRO-4500-Blackwell-Server-Edition",
			KarpenterGPUName:      "rtx-pro-4500",
			KarpenterGPUMemoryMiB: 32768,
			InstanceTypes: ec2("g7.2xlarge", "g7.4xlarge", "g7.8xlarge", "g7.12xlarge",
				"g7.24xlarge", "g7.48xlarge"),
		},
	}
}
