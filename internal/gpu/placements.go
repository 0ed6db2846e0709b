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
	me     bool
}

// sevenSliceGeometry: 7 compute slices, 8 memory slices. Rows in profile-ID
// order 19, 20, 15, 14, 9, 5, 0 (1g, 1g+me, 1g with 2 memory slices, 2g, 3g,
// 4g, 7g). Source: MIG user guide getting-started -lgipp example on A100
// (primary); identical on H100 NVL (third-party real output). Note that 1g
// profiles can never use memory slice 7, and 3g takes 4 memory slices.
var sevenSliceGeometry = []giPlacement{
	{id: 19, starts: []int{0, 1, 2, 3, 4, 5, 6}, size: 1, max: 7},
	{id: 20, starts: []int{0, 1, 2, 3, 4, 5, 6}, size: 1, max: 1, me: true},
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
	{id: 21, starts: []int{0, 1, 2, 3}, size: 1, max: 1, me: true},
	{id: 5, starts: []int{0, 2}, size: 2, max: 2},
	{id: 6, starts: []int{0, 2}, size: 2, max: 1, me: true},
	{id: 0, starts: []int{0}, size: 4, max: 1},
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
		g, gb, me, ok := parseProfileName(names[i])
		if !ok || me != row.me {
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
			MediaExtensions: row.me,
		}
	}
	return out
}

// parseProfileName splits "<g>g.<mem>gb[+me]" into its parts.
func parseProfileName(name string) (computeSlices, memoryGB int, me, ok bool) {
	base, me := strings.CutSuffix(name, "+me")
	g, mem, found := strings.Cut(base, "g.")
	if !found || !strings.HasSuffix(mem, "gb") {
		return 0, 0, false, false
	}
	c, err1 := strconv.Atoi(g)
	m, err2 := strconv.Atoi(strings.TrimSuffix(mem, "gb"))
	if err1 != nil || err2 != nil || c <= 0 || m <= 0 {
		return 0, 0, false, false
	}
	return c, m, me, true
}

// normalizeProfileName accepts the spellings people copy from resource names
// and mig-parted config names ("1G.10GB.me") and returns nvidia-smi's.
func normalizeProfileName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if base, ok := strings.CutSuffix(n, ".me"); ok {
		n = base + "+me"
	}
	return n
}

// dotted writes a profile the way the device plugin and mig-parted config
// names do: "+" becomes ".".
func dotted(profile string) string { return strings.ReplaceAll(profile, "+", ".") }
