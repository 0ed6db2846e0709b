package gpu

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Part is some of the GPUs of a node with a MIG config of their own, as a mig-parted entry with
// a `devices` list: NVIDIA's half-balanced layouts put GPUs 0-3 under all-balanced and leave 4-7
// whole. A node's parts cover each of its GPUs exactly once.
type Part struct {
	// Devices are GPU indices on the node, ascending.
	Devices []int
	// Config is a named config or a layout, as Resolve reads it.
	Config string
}

// ResolvedPart is a Part whose config Resolve accepted for the node's model.
type ResolvedPart struct {
	Devices []int
	MIG     MIGConfig
}

// partsSeparator and devicesSeparator frame the compact form of parts,
// "0-3:all-balanced;4-7:all-disabled"; no config or layout contains either.
const (
	partsSeparator   = ";"
	devicesSeparator = ":"
)

// IsParts reports whether s is the compact form of parts rather than one config for every GPU.
func IsParts(s string) bool { return strings.Contains(s, devicesSeparator) }

// FormatParts is the compact form of parts, "0-3:all-balanced;4-7:all-disabled", which
// ParseParts reads back; devices that do not run on are listed, "0,2,4-5".
func FormatParts(parts []Part) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = deviceRuns(p.Devices, ",") + devicesSeparator + p.Config
	}
	return strings.Join(out, partsSeparator)
}

// ParseParts reads the compact form FormatParts writes. It checks only the form; see
// ResolveParts for the rules.
func ParseParts(s string) ([]Part, error) {
	var out []Part
	for _, text := range strings.Split(s, partsSeparator) {
		devices, config, ok := strings.Cut(strings.TrimSpace(text), devicesSeparator)
		if !ok {
			return nil, fmt.Errorf("MIG parts %q: %q is not <GPU indices>:<config>, e.g. 0-3:all-balanced", s, text)
		}
		idx, err := parseDeviceRuns(devices)
		if err != nil {
			return nil, fmt.Errorf("MIG parts %q: %w", s, err)
		}
		out = append(out, Part{Devices: idx, Config: strings.TrimSpace(config)})
	}
	return out, nil
}

// ResolveParts checks the parts of a node of m with gpus GPUs: each config fits m by placement,
// and the parts cover every GPU index from 0 to gpus-1 once. Errors name the part by its place.
func ResolveParts(m *Model, gpus int, parts []Part) ([]ResolvedPart, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no MIG parts for %s", m.Name)
	}
	owner := make([]int, gpus)
	for i := range owner {
		owner[i] = -1
	}
	out := make([]ResolvedPart, len(parts))
	for i, p := range parts {
		if len(p.Devices) == 0 {
			return nil, &PartError{Part: i, Field: PartDevices, Err: fmt.Errorf("lists no GPU")}
		}
		for _, d := range p.Devices {
			switch {
			case d < 0 || d >= gpus:
				return nil, &PartError{Part: i, Field: PartDevices, Err: fmt.Errorf(
					"GPU %d is not on the node: its %d GPUs are 0 to %d", d, gpus, gpus-1)}
			case owner[d] >= 0:
				return nil, &PartError{Part: i, Field: PartDevices, Err: fmt.Errorf(
					"GPU %d is in part %d already; each GPU is in one part", d, owner[d])}
			}
			owner[d] = i
		}
		cfg, err := Resolve(m, p.Config)
		if err != nil {
			return nil, &PartError{Part: i, Field: PartConfig, Err: err}
		}
		out[i] = ResolvedPart{Devices: slices.Sorted(slices.Values(p.Devices)), MIG: cfg}
	}
	if missing := slices.Index(owner, -1); missing >= 0 {
		var left []int
		for d, o := range owner {
			if o < 0 {
				left = append(left, d)
			}
		}
		return nil, &PartError{Part: -1, Field: PartDevices, Err: fmt.Errorf(
			"GPUs %s of the node's %d are in no part; give them a part of their own (e.g. %s to leave them whole)",
			deviceRuns(left, ","), gpus, ConfigAllDisabled)}
	}
	return out, nil
}

// PartError is a problem with one part (Part -1: with the parts as a whole).
type PartError struct {
	Part  int
	Field PartField
	Err   error
}

// PartField names what of a part is wrong.
type PartField string

// The fields of a part.
const (
	PartDevices PartField = "devices"
	PartConfig  PartField = "config"
)

func (e *PartError) Error() string {
	if e.Part < 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("part %d %s: %s", e.Part, e.Field, e.Err)
}

func (e *PartError) Unwrap() error { return e.Err }

// PartsConfigName is the value of the nvidia.com/mig.config label for nodes split into parts:
// "custom-0-3-all-balanced-4-7-all-disabled", or a hash when that is longer than a label value
// may be. mig-parted does not know it: a custom mig-parted config must define it, with one entry
// per part.
func PartsConfigName(parts []ResolvedPart) string {
	var b strings.Builder
	b.WriteString(customPrefix)
	for i, p := range parts {
		if i > 0 {
			b.WriteString("-")
		}
		b.WriteString(deviceRuns(p.Devices, "_") + "-" + strings.TrimPrefix(p.MIG.Name, customPrefix))
	}
	if b.Len() > 63 { // Kubernetes label values are at most 63 characters
		h := fnv.New32a()
		for _, p := range parts {
			h.Write([]byte(deviceRuns(p.Devices, ",") + devicesSeparator + p.MIG.Name + partsSeparator))
		}
		return fmt.Sprintf("%s%08x", customPrefix, h.Sum32())
	}
	return b.String()
}

// deviceRuns writes ascending indices as runs, "0-3" or "0,2,4-5" with sep ",".
func deviceRuns(idx []int, sep string) string {
	var runs []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		run := strconv.Itoa(idx[i])
		if j > i {
			run += "-" + strconv.Itoa(idx[j])
		}
		runs = append(runs, run)
		i = j + 1
	}
	return strings.Join(runs, sep)
}

// parseDeviceRuns reads what deviceRuns writes with sep ",".
func parseDeviceRuns(s string) ([]int, error) {
	var out []int
	for _, run := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(run), "-")
		a, errA := strconv.Atoi(lo)
		b := a
		var errB error
		if isRange {
			b, errB = strconv.Atoi(hi)
		}
		if errA != nil || errB != nil || a < 0 || b < a || b >= maxParsedCount {
			return nil, fmt.Errorf("%q is not GPU indices such as 0-3 or 0,2", s)
		}
		for d := a; d <= b; d++ {
			out = append(out, d)
		}
	}
	return out, nil
}
