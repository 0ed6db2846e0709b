// Package gpu is the provider's single source of GPU facts: which GPU models
// exist, which MIG profiles they offer and where those profiles may be placed,
// which named MIG configurations the NVIDIA MIG manager (mig-parted) knows, and
// what a node then exposes to Kubernetes (resource names, counts, labels) under
// the mixed and single MIG strategies and under time-slicing.
//
// It imports nothing but the standard library so that Terraform data sources,
// resources and plan-time validators can share it.
//
// # Where the facts come from
//
// All facts live in the catalog files (catalog_*.go, placements.go, labels.go)
// and nowhere else. They were taken from /work/shared/reference/gpu_reference.yaml
// and re-checked against the upstream sources it cites:
//
//   - MIG profile names, instance counts and media-extension rules: the NVIDIA
//     MIG user guide (v580) and the GPU Operator's default mig-parted config
//     (testdata/, checked entry by entry against the catalog by
//     TestNVIDIADefaultConfig).
//   - Placement tables (start slot and size in memory slices): `nvidia-smi mig
//     -lgipp` output from the MIG user guide (A100), third-party real output
//     (A30, H100 NVL, RTX PRO 6000). For the other seven-slice GPUs (H100 80GB
//     and 96GB, GH200, H200, B200, GB200, B300, GB300) no -lgipp output was
//     read; their placements are INFERRED from identical profile IDs and counts
//     and are marked as such beside the data. The go-nvml mock placement tables
//     for H100/H200/B200 disagree with real hardware and were not used.
//   - Named MIG configs (all-disabled, all-enabled, all-<profile>, all-balanced):
//     the same default config.
//   - Resource names and node labels: NVIDIA/k8s-device-plugin (internal/rm,
//     internal/lm, internal/resource) and GPU Feature Discovery's README.
//   - AWS instance types, GPU counts, Karpenter label values, network cards:
//     aws/karpenter-provider-aws (instance-types.md, zz_generated.vpclimits.go),
//     with commits and dates beside the table in instance_types.go.
//
// # Validity is decided by placement
//
// A MIG layout is valid iff every GPU instance can be given one of its
// profile's allowed start slots with no two instances sharing a memory slice,
// at most one "+me" or "+me.all" (media extension) instance exists per GPU,
// and a "+me.all" instance, which takes every media engine, shares the GPU
// only with "-me" instances. Summing compute slices is not enough (3g+3g+1g
// sums to 7 but needs 9 memory slices on an 8-slice A100), so it is never used.
package gpu
