package gpu

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// LayoutErrorReason says which rule a MIG layout broke.
type LayoutErrorReason string

const (
	// ReasonNotMIGCapable: the model has no MIG.
	ReasonNotMIGCapable LayoutErrorReason = "not-mig-capable"
	// ReasonUnknownProfile: a profile is not one of the model's.
	ReasonUnknownProfile LayoutErrorReason = "unknown-profile"
	// ReasonInvalidCount: a count is negative.
	ReasonInvalidCount LayoutErrorReason = "invalid-count"
	// ReasonTooManyInstances: more instances of a profile than fit alone.
	ReasonTooManyInstances LayoutErrorReason = "too-many-instances"
	// ReasonTooManyMediaExtensions: more than one "+me" or "+me.all" instance
	// per GPU, or a "+me.all" beside an instance that is not "-me".
	ReasonTooManyMediaExtensions LayoutErrorReason = "too-many-media-extensions"
	// ReasonDoesNotFit: no placement gives every instance its own memory slices.
	ReasonDoesNotFit LayoutErrorReason = "does-not-fit"
)

// LayoutError is why a MIG layout is not valid on a model.
type LayoutError struct {
	Model  string
	Layout Layout
	Reason LayoutErrorReason
	// Profile is the profile the rule tripped on, if one did.
	Profile string
	// Detail explains the failure, e.g. "3g.40gb x2 uses all 8 memory
	// slices; 1g.10gb does not fit", or names the models an unknown
	// profile belongs to and the model's equivalent.
	Detail string
	// Suggestions are the nearest valid layouts: the maximal valid layouts
	// left after dropping instances from the request (at most three).
	Suggestions []Layout
}

func (e *LayoutError) Error() string {
	switch e.Reason {
	case ReasonNotMIGCapable:
		return fmt.Sprintf("%s does not support MIG; share it with time-slicing instead", e.Model)
	case ReasonUnknownProfile:
		return e.Detail
	case ReasonInvalidCount:
		return fmt.Sprintf("MIG layout %s: the count of %s must not be negative", e.Layout.String(), e.Profile)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MIG layout %s does not fit on one %s: %s", e.Layout.Summary(), e.Model, e.Detail)
	if len(e.Suggestions) > 0 {
		s := make([]string, len(e.Suggestions))
		for i, l := range e.Suggestions {
			s[i] = l.Summary()
		}
		b.WriteString("; valid: " + strings.Join(s, ", or "))
	}
	return b.String()
}

// newFitError builds the error for a layout with known profiles that breaks
// a count rule or cannot be placed; l is canonical for m.
func newFitError(m *Model, l Layout, reason LayoutErrorReason, profile string) *LayoutError {
	e := &LayoutError{Model: m.Name, Layout: l, Reason: reason, Profile: profile,
		Suggestions: nearestLayouts(m, l)}
	switch reason {
	case ReasonTooManyInstances:
		p, _ := m.Profile(profile)
		e.Detail = fmt.Sprintf("at most %d %s fit on one GPU (%s)", p.MaxInstances, p.Name, placementPhrase(p))
	case ReasonTooManyMediaExtensions:
		e.Detail = "a GPU has room for only one +me (media extension) instance"
		for _, p := range m.MIG {
			if p.AllMediaEngines && l[p.Name] > 0 {
				e.Detail = "a GPU has room for only one +me or +me.all (media extension) instance"
			}
		}
		if profile != "" {
			e.Detail = profile + " takes all of the GPU's media engines; the other instances must be -me ones"
		}
	default:
		e.Profile, e.Detail = explainNoFit(m, l)
	}
	return e
}

// explainNoFit places instances largest first and reports the first one that
// no longer fits next to those before it.
func explainNoFit(m *Model, l Layout) (string, string) {
	var order []string
	for _, name := range l.profiles() {
		for range l[name] {
			order = append(order, name)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		pi, _ := m.Profile(order[i])
		pj, _ := m.Profile(order[j])
		return pi.MemorySlices > pj.MemorySlices
	})
	prefix := Layout{}
	for _, name := range order {
		prefix[name]++
		if _, ok := place(m, prefix); ok {
			continue
		}
		prefix[name]--
		next, _ := m.Profile(name)
		used, need := memorySlicesUsed(m, prefix), memorySlicesUsed(m, l)
		var b strings.Builder
		if used == m.MemorySlices {
			fmt.Fprintf(&b, "%s uses all %d memory slices; ", prefix.Summary(), m.MemorySlices)
		} else {
			fmt.Fprintf(&b, "%s uses %d of %d memory slices; ", prefix.Summary(), used, m.MemorySlices)
		}
		if prefix[name] > 0 {
			b.WriteString("another ")
		}
		b.WriteString(name + " does not fit")
		if used < m.MemorySlices {
			fmt.Fprintf(&b, " (%s)", placementPhrase(next))
		}
		if need > m.MemorySlices {
			fmt.Fprintf(&b, "; the layout needs %d memory slices, the GPU has %d", need, m.MemorySlices)
		}
		return name, b.String()
	}
	return "", "no placement found" // unreachable: callers pass a non-placeable layout
}

// placementPhrase says where a profile may sit, e.g. "it spans 2 memory
// slices and can start only at slice 0, 2 or 4".
func placementPhrase(p *Profile) string {
	s := make([]string, len(p.Starts))
	for i, x := range p.Starts {
		s[i] = strconv.Itoa(x)
	}
	starts := s[0]
	if n := len(s); n > 1 {
		starts = strings.Join(s[:n-1], ", ") + " or " + s[n-1]
	}
	span := "1 memory slice"
	if p.MemorySlices > 1 {
		span = strconv.Itoa(p.MemorySlices) + " memory slices"
	}
	return fmt.Sprintf("it spans %s and can start only at slice %s", span, starts)
}
