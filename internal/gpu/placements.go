package gpu

import (
	"fmt"
	"strconv"
	"strings"
)

// giPlacement is one row of `nvidia-smi mig -lgipp` plus the instance count
// of `-lgip`: a GPU instance profile ID, where it may start (memory-slice
// index) and how many memory slices it spans. Placement depends on the
// profile ID, not on the memory size in its name, so every GPU of a geometry
// shares one table and only the names differ per model.
type giPlacement struct {
	id     int
	starts []int
	size   int
	max    int
	// suffix is the profile's attribute as nvidia-smi writes it after "<g>g.<mem>gb": "" for a
	// plain profile, "+me", "+me.all", "+gfx" or "-me" (see profileSuffixes).
	suffix string
}

// sevenSliceGeometry: 7 compute slices, 8 memory slices. Rows in profile-ID
// order 19, 20, 15, 14, 9, 5, 0 (1g, 1g+me, 1g with 2 memory slices, 2g, 3g,
// 4g, 7g). Source: MIG user guide getting-started -lgipp example on A100
// (primary); identical on H100 NVL (third-party real output). Note that 1g
// profiles can never use memory slice 7, and 3g takes 4 memory slices.
var sevenSliceGeometry = []giPlacement{
	{id: 19, starts: []int{0, 1, 2, 3, 4, 5, 6}, size: 1, max: 7},
	{id: 20, starts: []int{0, 1, 2, 3, 4, 5, 6}, size: 1, max: 1, suffix: "+me"},
	{id: 15, starts: []int{0, 2, 4, 6}, size: 2, max: 4},
	{id: 14, starts: []int{0, 2, 4}, size: 2, max: 3},
	{id: 9, starts: []int{0, 4}, size: 4, max: 2},
	{id: 5, starts: []int{0}, size: 4, max: 1},
	{id: 0, starts: []int{0}, size: 8, max: 1},
}

// a30Geometry: 4 compute slices, 4 memory slices. Rows in order 14, 21, 5, 6,
// 0 (1g, 1g+me, 2g, 2g+me, 4g). A30 uses different profile IDs from A100.
// Source: third-party real -lgipp output; counts from the MIG user guide's
// A30 table (1g.6gb+me needs R470+, 2g.12gb+me needs R525+).
var a30Geometry = []giPlacement{
	{id: 14, starts: []int{0, 1, 2, 3}, size: 1, max: 4},
	{id: 21, starts: []int{0, 1, 2, 3}, size: 1, max: 1, suffix: "+me"},
	{id: 5, starts: []int{0, 2}, size: 2, max: 2},
	{id: 6, starts: []int{0, 2}, size: 2, max: 1, suffix: "+me"},
	{id: 0, starts: []int{0}, size: 4, max: 1},
}

// rtxProBlackwellGeometry: RTX PRO 6000 Blackwell, 4 compute slices on a placement grid of 12
// units (1g takes 3, 2g 6, 4g all 12). Rows in order 14, 21, 47, 65, 67, 5, 35, 64, 66, 0, 32
// (1g, 1g+me, 1g+gfx, 1g+me.all, 1g-me, 2g, 2g+gfx, 2g+me.all, 2g-me, 4g, 4g+gfx). Source:
// `nvidia-smi mig -lgip` and `-lgipp` on an RTX PRO 6000 Blackwell Server Edition (third-party
// real output; the same IDs and counts in GoogleCloudPlatform/container-engine-accelerators#564
// and bottlerocket-kernel-kit#300); counts and media engines also in the MIG user guide's
// "GPU Instance Profiles on RTX PRO 6000" table.
var rtxProBlackwellGeometry = []giPlacement{
	{id: 14, starts: []int{0, 3, 6, 9}, size: 3, max: 4},
	{id: 21, starts: []int{0, 3, 6, 9}, size: 3, max: 1, suffix: "+me"},
	{id: 47, starts: []int{0, 3, 6, 9}, size: 3, max: 4, suffix: "+gfx"},
	{id: 65, starts: []int{0, 3, 6, 9}, size: 3, max: 1, suffix: "+me.all"},
	{id: 67, starts: []int{0, 3, 6, 9}, size: 3, max: 4, suffix: "-me"},
	{id: 5, starts: []int{0, 6}, size: 6, max: 2},
	{id: 35, starts: []int{0, 6}, size: 6, max: 2, suffix: "+gfx"},
	{id: 64, starts: []int{0, 6}, size: 6, max: 1, suffix: "+me.all"},
	{id: 66, starts: []int{0, 6}, size: 6, max: 2, suffix: "-me"},
	{id: 0, starts: []int{0}, size: 12, max: 1},
	{id: 32, starts: []int{0}, size: 12, max: 1, suffix: "+gfx"},
}

// migProfiles names the rows of a geometry table for one model, in the
// table's order. Compute slices and memory GB are read from the names so
// that they are not stated twice.
func migProfiles(geometry []giPlacement, names ...string) []Profile {
	if len(names) != len(geometry) {
		panic(fmt.Sprintf("gpu catalog: %d profile names for %d placement rows", len(names), len(geometry)))
	}
	out := make([]Profile, len(names))
	for i, row := range geometry {
		g, gb, suffix, ok := parseProfileName(names[i])
		if !ok || suffix != row.suffix {
			panic(fmt.Sprintf("gpu catalog: profile name %q does not match placement row %d", names[i], row.id))
		}
		out[i] = Profile{
			Name:            names[i],
			GIProfileID:     row.id,
			ComputeSlices:   g,
			MemorySlices:    row.size,
			MemoryGB:        gb,
			MaxInstances:    row.max,
			Starts:          row.starts,
			MediaExtensions: suffix == suffixME || suffix == suffixMEAll,
			AllMediaEngines: suffix == suffixMEAll,
			NoMediaEngines:  suffix == suffixNoME,
			Graphics:        suffix == suffixGfx,
		}
	}
	return out
}

// Profile attributes as nvidia-smi writes them after "<g>g.<mem>gb" (MIG user guide, "Profile
// References"): "+me" adds the GPU's one set of media extensions (OFA), "+me.all" takes every
// media engine, "-me" has none, "+gfx" adds graphics APIs (RTX PRO Blackwell).
const (
	suffixME    = "+me"
	suffixMEAll = "+me.all"
	suffixNoME  = "-me"
	suffixGfx   = "+gfx"
)

// profileSuffixes, longest first so that "+me.all" is not read as "+me".
var profileSuffixes = []string{suffixMEAll, suffixME, suffixGfx, suffixNoME}

// parseProfileName splits "<g>g.<mem>gb[suffix]" into its parts.
func parseProfileName(name string) (computeSlices, memoryGB int, suffix string, ok bool) {
	base := name
	for _, sfx := range profileSuffixes {
		if b, found := strings.CutSuffix(name, sfx); found {
			base, suffix = b, sfx
			break
		}
	}
	g, mem, found := strings.Cut(base, "g.")
	if !found || !strings.HasSuffix(mem, "gb") {
		return 0, 0, "", false
	}
	c, err1 := strconv.Atoi(g)
	m, err2 := strconv.Atoi(strings.TrimSuffix(mem, "gb"))
	if err1 != nil || err2 != nil || c <= 0 || m <= 0 {
		return 0, 0, "", false
	}
	return c, m, suffix, true
}

// normalizeProfileName accepts the spellings people copy from resource names
// and mig-parted config names ("1G.10GB.me", "1g.24gb.me.all") and returns
// nvidia-smi's.
func normalizeProfileName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, sfx := range profileSuffixes {
		if dottedSfx := dotted(sfx); dottedSfx != sfx {
			if base, ok := strings.CutSuffix(n, dottedSfx); ok {
				return base + sfx
			}
		}
	}
	return n
}

// dotted writes a profile the way the device plugin and mig-parted config
// names do: "+" becomes ".".
func dotted(profile string) string { return strings.ReplaceAll(profile, "+", ".") }
