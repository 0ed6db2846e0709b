package gpu

// Blackwell GPUs with MIG: B200, GB200 (under both names its firmware has used), B300, GB300,
// RTX PRO 6000 Blackwell Server Edition.
//
// Profile names and counts of every one: the GPU Operator's default mig-parted config
// (assets/state-mig-manager/0400_configmap.yaml, stored in testdata/ and checked against this
// catalog by TestNVIDIADefaultConfig). The seven-slice GPUs share one placement table; where
// no `nvidia-smi mig -lgipp` output was read for a GPU its placements are INFERRED from its
// profile IDs and counts being those of the A100 and H100 NVL, whose placements were read.
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
		{
			Name:         "GB200-186GB",
			Aliases:      []string{"gb200", "gb200-186gb", "gb200-nvl72"},
			Architecture: "Blackwell",
			// 186GB: MIG user guide "Supported GPUs" table and the 7g.186gb profile.
			MemoryGB: 186,
			// INFERRED: NVML name "NVIDIA GB200" (the accelerator name MLPerf submissions on
			// GB200 NVL72 report), sanitised; not observed on a node.
			ProductLabel: "NVIDIA-GB200",
			PCIDeviceIDs: []string{"0x294110DE"},
			// No Karpenter GPU name or memory: what EC2 reports for p6e-gb200 was not read
			// (instance_types.go), so its pools select it by instance type name.
			InstanceTypes: ec2("p6e-gb200.36xlarge"),
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names, IDs 19/20/15/14 and counts: real -lgip on production GB200 boards
			// (mig-parted#227, fixed by mig-parted ebab1f77 "Use the correct mig partition
			// settings for the GB200"). INFERRED: IDs 9/5/0 and all placements.
			MIG: migProfiles(sevenSliceGeometry,
				"1g.23gb", "1g.23gb+me", "1g.47gb", "2g.47gb", "3g.93gb", "4g.93gb", "7g.186gb"),
			Balanced: Layout{"1g.23gb": 2, "2g.47gb": 1, "3g.93gb": 1},
		},
		{
			// The same GPU (same PCI id and NVML name) as reported by the firmware of the first
			// HGX GB200 boards NVIDIA supported: real -lgip in gpu-operator#1303 (1g.24gb ID 19 x7,
			// 1g.24gb+me ID 20, 1g.47gb ID 15 x4, 2g.47gb ID 14 x3), with 3g.95gb, 4g.95gb and
			// 7g.189gb added by mig-parted 89dd81a3 from the same output. mig-parted still ships
			// all-3g.95gb, all-4g.95gb and all-7g.189gb for it. It comes after GB200-186GB, which
			// therefore answers for the shared PCI id and product label.
			Name:         "GB200-189GB",
			Aliases:      []string{"gb200-189gb", "gb200-early"},
			Architecture: "Blackwell",
			MemoryGB:     189,
			ProductLabel: "NVIDIA-GB200",
			PCIDeviceIDs: []string{"0x294110DE"},
			// INFERRED: IDs 9/5/0 and all placements.
			MIG: migProfiles(sevenSliceGeometry,
				"1g.24gb", "1g.24gb+me", "1g.47gb", "2g.47gb", "3g.95gb", "4g.95gb", "7g.189gb"),
			ComputeSlices: 7,
			MemorySlices:  8,
			// No all-balanced: mig-parted's all-balanced for 0x2941 is the production layout
			// (1g.23gb...), which these boards cannot create. all-1g.24gb is NVIDIA's one
			// unfiltered entry of 4 (it serves H100 NVL and RTX PRO 6000 too), not the 7 that fit.
			NamedConfigCounts: map[string]int{"1g.24gb": 4},
		},
		{
			Name:         "B300-269GB",
			Aliases:      []string{"b300", "b300-269gb", "b300-288gb", "b300-sxm6"},
			Architecture: "Blackwell Ultra",
			// 269 GB as the MIG 7g.269gb profile shows it (288 GB of HBM3e; AWS: 275040 MiB).
			MemoryGB: 269,
			// INFERRED: NVML name "NVIDIA B300 SXM6 AC" as NVIDIA NIM's support table spells
			// the GPU (third-party page quoting it), sanitised; not observed on a node.
			ProductLabel:          "NVIDIA-B300-SXM6-AC",
			KarpenterGPUName:      "b300",
			KarpenterGPUMemoryMiB: 275040,
			// 0x3182 = B300: the all-balanced comment of mig-parted's config-default.
			PCIDeviceIDs:  []string{"0x318210DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names and counts: mig-parted config-default (added in 47c56d96, "add support for
			// the B300 GPU node"). INFERRED: profile IDs and placements (no -lgip/-lgipp output
			// read for B300; the GB300's real IDs 19/20/15/14/9/5/0 have the same shape).
			MIG: migProfiles(sevenSliceGeometry,
				"1g.34gb", "1g.34gb+me", "1g.67gb", "2g.67gb", "3g.135gb", "4g.135gb", "7g.269gb"),
			Balanced:      Layout{"1g.34gb": 2, "2g.67gb": 1, "3g.135gb": 1},
			InstanceTypes: ec2("p6-b300.48xlarge"),
		},
		{
			Name:         "GB300-278GB",
			Aliases:      []string{"gb300", "gb300-278gb"},
			Architecture: "Blackwell Ultra",
			MemoryGB:     278,
			// `nvidia-smi -L` prints "NVIDIA GB300" (NVIDIA's DGX Station MIG playbook).
			ProductLabel: "NVIDIA-GB300",
			// 0x31C2 = GB300: the all-balanced comment of mig-parted's config-default.
			PCIDeviceIDs:  []string{"0x31C210DE"},
			ComputeSlices: 7,
			MemorySlices:  8,
			// Names, IDs 19/20/15/14/9/5/0 and counts: NVIDIA's DGX Station MIG playbook
			// (`nvidia-smi mig -lgip` on GB300) and mig-parted config-default (75449116 "add the
			// mig profiles for GB300"). INFERRED: placements.
			MIG: migProfiles(sevenSliceGeometry,
				"1g.35gb", "1g.35gb+me", "1g.70gb", "2g.70gb", "3g.139gb", "4g.139gb", "7g.278gb"),
			Balanced: Layout{"1g.35gb": 2, "2g.70gb": 1, "3g.139gb": 1},
		},
		{
			Name: "RTX-PRO-6000-96GB",
			Aliases: []string{"rtx-pro-6000", "rtx-pro-6000-96gb", "rtx-pro-server-6000",
				"rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell Server Edition"},
			Architecture: "Blackwell",
			MemoryGB:     96,
			// `nvidia-smi -L` prints "NVIDIA RTX PRO 6000 Blackwell Server Edition" (third-party
			// real output), the edition AWS g7e carries; the Workstation editions report
			// other names.
			ProductLabel:          "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
			KarpenterGPUName:      "rtx-pro-server-6000",
			KarpenterGPUMemoryMiB: 98304,
			PCIDeviceIDs:          []string{"0x2BB510DE"},
			ComputeSlices:         4,
			// Placement units, not eighths: the grid `nvidia-smi mig -lgipp` shows has 12.
			MemorySlices: 12,
			// Names, counts and media engines: MIG user guide "GPU Instance Profiles on RTX PRO
			// 6000"; IDs and placements: rtxProBlackwellGeometry.
			MIG: migProfiles(rtxProBlackwellGeometry,
				"1g.24gb", "1g.24gb+me", "1g.24gb+gfx", "1g.24gb+me.all", "1g.24gb-me",
				"2g.48gb", "2g.48gb+gfx", "2g.48gb+me.all", "2g.48gb-me", "4g.96gb", "4g.96gb+gfx"),
			Balanced: Layout{"1g.24gb": 2, "2g.48gb": 1},
			InstanceTypes: ec2("g7e.2xlarge", "g7e.4xlarge", "g7e.8xlarge", "g7e.12xlarge",
				"g7e.24xlarge", "g7e.48xlarge"),
		},
	}
}
