package gpu

// Resource names and node labels, and who writes them. Sources: NVIDIA
// k8s-device-plugin (internal/rm/rm.go, internal/lm/resource.go,
// internal/lm/mig-strategy.go), GPU Feature Discovery's README, the MIG
// manager (mig-parted cmd/nvidia-mig-manager), and
// aws/karpenter-provider-aws pkg/apis/v1/labels.go.
const (
	// ResourceGPU is a whole GPU, or a MIG device under the single strategy.
	ResourceGPU = "nvidia.com/gpu"
	// migResourcePrefix + dotted profile is a MIG device under the mixed strategy.
	migResourcePrefix = "nvidia.com/mig-"
	// sharedSuffix is appended to a time-sliced resource with renameByDefault.
	sharedSuffix = ".shared"

	// LabelMIGConfig is set by the provider on the node (through the
	// NodePool template) to a mig-parted config name; the MIG manager
	// watches it and repartitions the GPUs.
	LabelMIGConfig = "nvidia.com/mig.config"
	// LabelGPUProduct is written by GPU Feature Discovery: the sanitised NVML
	// name, "<product>-MIG-<profile>" under the single strategy, with
	// "-SHARED" appended when time-sliced without renaming.
	LabelGPUProduct = "nvidia.com/gpu.product"
	// LabelGPUReplicas is written by GPU Feature Discovery: time-slicing replicas.
	LabelGPUReplicas = "nvidia.com/gpu.replicas"
	// LabelKarpenterGPUName and LabelKarpenterGPUMemory are set by Karpenter
	// from EC2 data, and so are known before a node exists.
	LabelKarpenterGPUName   = "karpenter.k8s.aws/instance-gpu-name"
	LabelKarpenterGPUMemory = "karpenter.k8s.aws/instance-gpu-memory"
	// LabelKarpenterGPUCount, LabelKarpenterInstanceFamily and LabelKarpenterInstanceGeneration
	// are set by Karpenter too, from the instance type (see InstanceRequirements).
	LabelKarpenterGPUCount           = "karpenter.k8s.aws/instance-gpu-count"
	LabelKarpenterInstanceFamily     = "karpenter.k8s.aws/instance-family"
	LabelKarpenterInstanceGeneration = "karpenter.k8s.aws/instance-generation"
)

// productLabel is what GPU Feature Discovery writes to nvidia.com/gpu.product:
// the parts joined by "-" (internal/lm/resource.go getProductName). MIG
// profile names come from the device plugin with "+" already turned into ".".
//
// The GFD README's example "A100-SXM4-40GB-MIG-1g.5gb" lacks the "NVIDIA-"
// prefix because older drivers reported names without it; nodes on current
// drivers show "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb".
func productLabel(m *Model, migProfile string, shared bool) string {
	v := m.ProductLabel
	if migProfile != "" {
		v += "-MIG-" + dotted(migProfile)
	}
	if shared {
		v += "-SHARED"
	}
	return v
}
