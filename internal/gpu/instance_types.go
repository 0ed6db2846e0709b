package gpu

import "fmt"

// InstanceType is an AWS EC2 instance type with NVIDIA GPUs, as Karpenter sees it.
type InstanceType struct {
	Name string
	// GPUName is Karpenter's karpenter.k8s.aws/instance-gpu-name (e.g. "a100").
	GPUName string
	GPUs    int
	// GPUMemoryMiB is the memory of one GPU (karpenter.k8s.aws/instance-gpu-memory).
	GPUMemoryMiB int64
	VCPUs        int
	MemoryMiB    int64
	// LocalNVMeGB is the instance store (karpenter.k8s.aws/instance-local-nvme); 0 for none.
	LocalNVMeGB int64
	// EFA is the number of EFA interfaces (the vpc.amazonaws.com/efa resource); 0 without EFA.
	EFA int
	// NetworkCards is how many network cards the instance has (EC2 NetworkInfo.NetworkCards): an
	// EFA interface goes on each card, so p5.48xlarge takes 32 and p6-b300.48xlarge 17 (its 16
	// EFA cards and one more).
	NetworkCards int
	// AllocatableCPUMilli and AllocatableMemoryMiB are what Karpenter expects a node to offer pods:
	// capacity less its default kube-reserved, eviction threshold and VM overhead (7.5% of memory).
	AllocatableCPUMilli  int64
	AllocatableMemoryMiB int64
}

// PerGPU is the CPU (millicores) and memory (MiB) one GPU's share of the node offers pods: the
// allocatable divided by the GPUs, rounded down.
func (t InstanceType) PerGPU() (cpuMilli, memoryMiB int64) {
	return t.AllocatableCPUMilli / int64(t.GPUs), t.AllocatableMemoryMiB / int64(t.GPUs)
}

// InstanceTypeInfo returns the table's row for an EC2 instance type.
func InstanceTypeInfo(name string) (InstanceType, bool) {
	for _, t := range ec2InstanceTypes {
		if t.Name == name {
			return t, true
		}
	}
	return InstanceType{}, false
}

// ec2 returns the rows of the named instance types, for the models' tables; an unknown name is a
// bug in the catalog, found by its tests at init.
func ec2(names ...string) []InstanceType {
	out := make([]InstanceType, len(names))
	for i, n := range names {
		t, ok := InstanceTypeInfo(n)
		if !ok {
			panic(fmt.Sprintf("gpu catalog: instance type %q is not in ec2InstanceTypes", n))
		}
		out[i] = t
	}
	return out
}

// ec2InstanceTypes are the EC2 instance types with NVIDIA GPUs that Karpenter lists.
//
// Source: aws/karpenter-provider-aws, website/content/en/docs/reference/instance-types.md at
// commit 1d927085 (2026-08-21), the labels and resources Karpenter computes from EC2
// DescribeInstanceTypes; allocatable cpu and memory are its "Resources" table (Karpenter's
// defaults: no systemReserved, its kube-reserved formula, 100Mi eviction threshold,
// vmMemoryOverheadPercent 0.075). A node class that reserves more leaves pods less.
//
// The p3 rows come from the same page one commit before Karpenter v1.13.0 dropped the family
// (2be95547, 2026-06-10); v1.15.2's zz_generated.pricing_aws.go still prices p3 in us-east-1.
//
// NetworkCards: pkg/providers/instancetype/zz_generated.vpclimits.go of karpenter-provider-aws
// v1.12.0 (generated 2026-03-20), the length of each type's NetworkCards, and g7 from the same
// file at commit 1d927085 (generated 2026-08-06); a test checks every row against the pinned
// v1.15.2's file.
//
// Left out: g6f and gr6f, fractional L4s for which EC2 reports 0 GPUs
// (aws/karpenter-provider-aws#8368).
//
// p6e-gb200.36xlarge (GB200; the EKS User Guide: sold only within UltraServers, through Capacity
// Blocks) is in none of Karpenter's generated files but zz_generated.bandwidth.go (3200000 Mbps,
// v1.12.0 to v1.15.2), so its row is transcribed from AWS, and what Karpenter derives is computed:
//   - 4 GPUs, 144 vCPUs, 960 GiB, 3 x 7500 GB NVMe, 17 network cards: EC2 instance types guide
//     (ac.html) and EC2 User Guide "Network cards", as copies of those pages read here show them;
//     740 GB of GPU memory in all (185 per GPU; NVIDIA names the GPU's 186 GB).
//   - EFA 17: aws-parallelcluster#6930 (AWS's launcher puts an EFA interface on every one of its
//     17 cards; card 0 takes 2 interfaces, the odd cards 1).
//   - GPUName and GPUMemoryMiB are empty: no source at hand gives the GpuInfo EC2 reports for it
//     (name "GB200" or "B200", exact MiB), and a wrong label would select no node. Pools name it.
//   - Allocatable by karpenter-provider-aws v1.12.0 instancetype/types.go: cpu 144000m less
//     kube-reserved 430m; memory 983040Mi less ceil(7.5%) VM overhead, kube-reserved 11Mi x 100
//     pods + 255Mi (ENI-limited: 2 interfaces on card 0 x (50 IPv4 - 1) + 2; 50 from ac.html) and
//     the 100Mi eviction threshold.
var ec2InstanceTypes = []InstanceType{
	{Name: "g4dn.xlarge", GPUName: "t4", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 4, MemoryMiB: 16384, LocalNVMeGB: 125, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 3920, AllocatableMemoryMiB: 14481},
	{Name: "g4dn.2xlarge", GPUName: "t4", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 8, MemoryMiB: 32768, LocalNVMeGB: 225, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 29636},
	{Name: "g4dn.4xlarge", GPUName: "t4", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 16, MemoryMiB: 65536, LocalNVMeGB: 225, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 59946},
	{Name: "g4dn.8xlarge", GPUName: "t4", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 32, MemoryMiB: 131072, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 120248},
	{Name: "g4dn.12xlarge", GPUName: "t4", GPUs: 4, GPUMemoryMiB: 16384, VCPUs: 48, MemoryMiB: 196608, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 178933},
	{Name: "g4dn.16xlarge", GPUName: "t4", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 64, MemoryMiB: 262144, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 241490},
	{Name: "g4dn.metal", GPUName: "t4", GPUs: 8, GPUMemoryMiB: 16384, VCPUs: 96, MemoryMiB: 393216, LocalNVMeGB: 1800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 355262},
	{Name: "g5.xlarge", GPUName: "a10g", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 4, MemoryMiB: 16384, LocalNVMeGB: 250, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 3920, AllocatableMemoryMiB: 14162},
	{Name: "g5.2xlarge", GPUName: "a10g", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 8, MemoryMiB: 32768, LocalNVMeGB: 450, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 29317},
	{Name: "g5.4xlarge", GPUName: "a10g", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 16, MemoryMiB: 65536, LocalNVMeGB: 600, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 57691},
	{Name: "g5.8xlarge", GPUName: "a10g", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 32, MemoryMiB: 131072, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 118312},
	{Name: "g5.12xlarge", GPUName: "a10g", GPUs: 4, GPUMemoryMiB: 22888, VCPUs: 48, MemoryMiB: 196608, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 173400},
	{Name: "g5.16xlarge", GPUName: "a10g", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 64, MemoryMiB: 262144, LocalNVMeGB: 1900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 239554},
	{Name: "g5.24xlarge", GPUName: "a10g", GPUs: 4, GPUMemoryMiB: 22888, VCPUs: 96, MemoryMiB: 393216, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 355262},
	{Name: "g5.48xlarge", GPUName: "a10g", GPUs: 8, GPUMemoryMiB: 22888, VCPUs: 192, MemoryMiB: 786432, LocalNVMeGB: 7600, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 723299},
	{Name: "g5g.xlarge", GPUName: "t4g", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 4, MemoryMiB: 8192, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 3920, AllocatableMemoryMiB: 6525},
	{Name: "g5g.2xlarge", GPUName: "t4g", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 8, MemoryMiB: 16384, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 14103},
	{Name: "g5g.4xlarge", GPUName: "t4g", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 16, MemoryMiB: 32768, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 27322},
	{Name: "g5g.8xlarge", GPUName: "t4g", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 32, MemoryMiB: 65536, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 57632},
	{Name: "g5g.16xlarge", GPUName: "t4g", GPUs: 2, GPUMemoryMiB: 16384, VCPUs: 64, MemoryMiB: 131072, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 112720},
	{Name: "g5g.metal", GPUName: "t4g", GPUs: 2, GPUMemoryMiB: 16384, VCPUs: 64, MemoryMiB: 131072, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 112720},
	{Name: "g6.xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 4, MemoryMiB: 16384, LocalNVMeGB: 250, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 3920, AllocatableMemoryMiB: 14162},
	{Name: "g6.2xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 8, MemoryMiB: 32768, LocalNVMeGB: 450, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 29317},
	{Name: "g6.4xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 16, MemoryMiB: 65536, LocalNVMeGB: 600, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 57691},
	{Name: "g6.8xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 32, MemoryMiB: 131072, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 118312},
	{Name: "g6.12xlarge", GPUName: "l4", GPUs: 4, GPUMemoryMiB: 22888, VCPUs: 48, MemoryMiB: 196608, LocalNVMeGB: 3760, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 178933},
	{Name: "g6.16xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 64, MemoryMiB: 262144, LocalNVMeGB: 1880, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 234021},
	{Name: "g6.24xlarge", GPUName: "l4", GPUs: 4, GPUMemoryMiB: 22888, VCPUs: 96, MemoryMiB: 393216, LocalNVMeGB: 3760, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 355262},
	{Name: "g6.48xlarge", GPUName: "l4", GPUs: 8, GPUMemoryMiB: 22888, VCPUs: 192, MemoryMiB: 786432, LocalNVMeGB: 7520, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 718987},
	{Name: "g6e.xlarge", GPUName: "l40s", GPUs: 1, GPUMemoryMiB: 45776, VCPUs: 4, MemoryMiB: 32768, LocalNVMeGB: 250, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 3920, AllocatableMemoryMiB: 29317},
	{Name: "g6e.2xlarge", GPUName: "l40s", GPUs: 1, GPUMemoryMiB: 45776, VCPUs: 8, MemoryMiB: 65536, LocalNVMeGB: 450, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 59627},
	{Name: "g6e.4xlarge", GPUName: "l40s", GPUs: 1, GPUMemoryMiB: 45776, VCPUs: 16, MemoryMiB: 131072, LocalNVMeGB: 600, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 118312},
	{Name: "g6e.8xlarge", GPUName: "l40s", GPUs: 1, GPUMemoryMiB: 45776, VCPUs: 32, MemoryMiB: 262144, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 239554},
	{Name: "g6e.12xlarge", GPUName: "l40s", GPUs: 4, GPUMemoryMiB: 45776, VCPUs: 48, MemoryMiB: 393216, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 360157},
	{Name: "g6e.16xlarge", GPUName: "l40s", GPUs: 1, GPUMemoryMiB: 45776, VCPUs: 64, MemoryMiB: 524288, LocalNVMeGB: 1900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 476504},
	{Name: "g6e.24xlarge", GPUName: "l40s", GPUs: 4, GPUMemoryMiB: 45776, VCPUs: 96, MemoryMiB: 786432, LocalNVMeGB: 3800, EFA: 2, NetworkCards: 2, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 721682},
	{Name: "g6e.48xlarge", GPUName: "l40s", GPUs: 8, GPUMemoryMiB: 45776, VCPUs: 192, MemoryMiB: 1572864, LocalNVMeGB: 7600, EFA: 4, NetworkCards: 4, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1449132},
	{Name: "g7.2xlarge", GPUName: "rtx-pro-4500", GPUs: 1, GPUMemoryMiB: 32768, VCPUs: 8, MemoryMiB: 32768, LocalNVMeGB: 440, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 27161},
	{Name: "g7.4xlarge", GPUName: "rtx-pro-4500", GPUs: 1, GPUMemoryMiB: 32768, VCPUs: 16, MemoryMiB: 65536, LocalNVMeGB: 875, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 54699},
	{Name: "g7.8xlarge", GPUName: "rtx-pro-4500", GPUs: 1, GPUMemoryMiB: 32768, VCPUs: 32, MemoryMiB: 131072, LocalNVMeGB: 930, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 113934},
	{Name: "g7.12xlarge", GPUName: "rtx-pro-4500", GPUs: 2, GPUMemoryMiB: 32768, VCPUs: 48, MemoryMiB: 196608, LocalNVMeGB: 1900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 173169},
	{Name: "g7.24xlarge", GPUName: "rtx-pro-4500", GPUs: 4, GPUMemoryMiB: 32768, VCPUs: 96, MemoryMiB: 393216, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 346715},
	{Name: "g7.48xlarge", GPUName: "rtx-pro-4500", GPUs: 8, GPUMemoryMiB: 32768, VCPUs: 192, MemoryMiB: 786432, LocalNVMeGB: 7600, EFA: 2, NetworkCards: 2, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 718756},
	{Name: "g7e.2xlarge", GPUName: "rtx-pro-server-6000", GPUs: 1, GPUMemoryMiB: 98304, VCPUs: 8, MemoryMiB: 65536, LocalNVMeGB: 1900, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 57471},
	{Name: "g7e.4xlarge", GPUName: "rtx-pro-server-6000", GPUs: 1, GPUMemoryMiB: 98304, VCPUs: 16, MemoryMiB: 131072, LocalNVMeGB: 1900, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 115320},
	{Name: "g7e.8xlarge", GPUName: "rtx-pro-server-6000", GPUs: 1, GPUMemoryMiB: 98304, VCPUs: 32, MemoryMiB: 262144, LocalNVMeGB: 1900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 236562},
	{Name: "g7e.12xlarge", GPUName: "rtx-pro-server-6000", GPUs: 2, GPUMemoryMiB: 98304, VCPUs: 48, MemoryMiB: 524288, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 47810, AllocatableMemoryMiB: 477659},
	{Name: "g7e.24xlarge", GPUName: "rtx-pro-server-6000", GPUs: 4, GPUMemoryMiB: 98304, VCPUs: 96, MemoryMiB: 1048576, LocalNVMeGB: 7600, EFA: 2, NetworkCards: 2, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 962625},
	{Name: "g7e.48xlarge", GPUName: "rtx-pro-server-6000", GPUs: 8, GPUMemoryMiB: 98304, VCPUs: 192, MemoryMiB: 2097152, LocalNVMeGB: 15200, EFA: 4, NetworkCards: 4, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1932558},
	{Name: "gr6.4xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 16, MemoryMiB: 131072, LocalNVMeGB: 600, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 118312},
	{Name: "gr6.8xlarge", GPUName: "l4", GPUs: 1, GPUMemoryMiB: 22888, VCPUs: 32, MemoryMiB: 262144, LocalNVMeGB: 900, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 239554},
	{Name: "p3.2xlarge", GPUName: "v100", GPUs: 1, GPUMemoryMiB: 16384, VCPUs: 8, MemoryMiB: 62464, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 7910, AllocatableMemoryMiB: 56786},
	{Name: "p3.8xlarge", GPUName: "v100", GPUs: 4, GPUMemoryMiB: 16384, VCPUs: 32, MemoryMiB: 249856, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 31850, AllocatableMemoryMiB: 228187},
	{Name: "p3.16xlarge", GPUName: "v100", GPUs: 8, GPUMemoryMiB: 16384, VCPUs: 64, MemoryMiB: 499712, LocalNVMeGB: 0, EFA: 0, NetworkCards: 1, AllocatableCPUMilli: 63770, AllocatableMemoryMiB: 459304},
	{Name: "p3dn.24xlarge", GPUName: "v100", GPUs: 8, GPUMemoryMiB: 32768, VCPUs: 96, MemoryMiB: 786432, LocalNVMeGB: 1800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 718987},
	{Name: "p4d.24xlarge", GPUName: "a100", GPUs: 8, GPUMemoryMiB: 40960, VCPUs: 96, MemoryMiB: 1179648, LocalNVMeGB: 8000, EFA: 4, NetworkCards: 4, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 1082712},
	{Name: "p4de.24xlarge", GPUName: "a100", GPUs: 8, GPUMemoryMiB: 81920, VCPUs: 96, MemoryMiB: 1179648, LocalNVMeGB: 8000, EFA: 4, NetworkCards: 4, AllocatableCPUMilli: 95690, AllocatableMemoryMiB: 1082712},
	{Name: "p5.4xlarge", GPUName: "h100", GPUs: 1, GPUMemoryMiB: 81920, VCPUs: 16, MemoryMiB: 262144, LocalNVMeGB: 3800, EFA: 1, NetworkCards: 1, AllocatableCPUMilli: 15890, AllocatableMemoryMiB: 240830},
	{Name: "p5.48xlarge", GPUName: "h100", GPUs: 8, GPUMemoryMiB: 81920, VCPUs: 192, MemoryMiB: 2097152, LocalNVMeGB: 30400, EFA: 32, NetworkCards: 32, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1938410},
	{Name: "p5e.48xlarge", GPUName: "h200", GPUs: 8, GPUMemoryMiB: 144384, VCPUs: 192, MemoryMiB: 2097152, LocalNVMeGB: 30400, EFA: 32, NetworkCards: 32, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1938410},
	{Name: "p5en.48xlarge", GPUName: "h200", GPUs: 8, GPUMemoryMiB: 144384, VCPUs: 192, MemoryMiB: 2097152, LocalNVMeGB: 30400, EFA: 16, NetworkCards: 16, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1937332},
	{Name: "p6-b200.48xlarge", GPUName: "b200", GPUs: 8, GPUMemoryMiB: 183359, VCPUs: 192, MemoryMiB: 2097152, LocalNVMeGB: 30400, EFA: 8, NetworkCards: 8, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 1937332},
	{Name: "p6-b300.48xlarge", GPUName: "b300", GPUs: 8, GPUMemoryMiB: 275040, VCPUs: 192, MemoryMiB: 4194304, LocalNVMeGB: 30400, EFA: 16, NetworkCards: 17, AllocatableCPUMilli: 191450, AllocatableMemoryMiB: 3877198},
	{Name: "p6e-gb200.36xlarge", GPUName: "", GPUs: 4, GPUMemoryMiB: 0, VCPUs: 144, MemoryMiB: 983040, LocalNVMeGB: 22500, EFA: 17, NetworkCards: 17, AllocatableCPUMilli: 143570, AllocatableMemoryMiB: 907857},
}
