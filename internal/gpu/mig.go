package gpu

import (
	"sort"
	"sync"
)

// Placement is where one MIG instance sits on the GPU: memory slices
// [Start, Start+Size).
type Placement struct {
	Profile string
	Start   int
	Size    int
}

// ValidateLayout reports whether layout fits on one GPU of model m, deciding
// by placement (see the package comment). The error is a *LayoutError that
// says why and suggests the nearest valid layouts.
func ValidateLayout(m *Model, layout Layout) error {
	_, err := PlaceLayout(m, layout)
	return err
}

// PlaceLayout returns one placement of every instance of layout on a GPU of
// model m, largest instances first, or a *LayoutError if there is none.
func PlaceLayout(m *Model, layout Layout) ([]Placement, error) {
	if !m.MIGCapable() {
		return nil, &LayoutError{Model: m.Name, Layout: layout, Reason: ReasonNotMIGCapable}
	}
	for name, n := range layout {
		if n < 0 {
			return nil, &LayoutError{Model: m.Name, Layout: layout, Reason: ReasonInvalidCount, Profile: name}
		}
		if n == 0 {
			continue
		}
		if _, err := m.Profile(name); err != nil {
			return nil, &LayoutError{Model: m.Name, Layout: layout, Reason: ReasonUnknownProfile,
				Profile: name, Detail: m.unknownProfile(name)}
		}
	}
	l := canonicalLayout(m, layout)
	if reason, profile := countRule(m, l); reason != "" {
		return nil, newFitError(m, l, reason, profile)
	}
	if ps, ok := place(m, l); ok {
		return ps, nil
	}
	return nil, newFitError(m, l, ReasonDoesNotFit, "")
}

// canonicalLayout keys the layout by the model's own profile names so that
// "1G.10GB.me" and "1g.10gb+me" count as the same profile.
func canonicalLayout(m *Model, layout Layout) Layout {
	out := Layout{}
	for name, n := range layout {
		if n > 0 {
			p, _ := m.Profile(name)
			out[p.Name] += n
		}
	}
	return out
}

// countRule checks the per-profile instance limit and the media rules: one
// "+me" or "+me.all" instance per GPU (the GPU has one set of media
// extensions to give), and a "+me.all" instance takes every media engine, so
// it can only share the GPU with "-me" instances (engine counts: MIG user
// guide, RTX PRO 6000 table). Placement alone enforces every other limit.
func countRule(m *Model, l Layout) (LayoutErrorReason, string) {
	me, all, withEngines := 0, "", 0
	for _, p := range m.MIG {
		n := l[p.Name]
		if n > p.MaxInstances {
			return ReasonTooManyInstances, p.Name
		}
		if p.MediaExtensions {
			me += n
		}
		if p.AllMediaEngines && n > 0 {
			all = p.Name
		}
		if !p.NoMediaEngines {
			withEngines += n
		}
	}
	if me > 1 {
		return ReasonTooManyMediaExtensions, ""
	}
	if all != "" && withEngines > 1 {
		return ReasonTooManyMediaExtensions, all
	}
	return "", ""
}

// place searches start slots by backtracking, largest instances first. Two
// instances of one profile are interchangeable, so the second must start
// after the first; with at most 8 memory slices the search is tiny.
func place(m *Model, l Layout) ([]Placement, bool) {
	var inst []*Profile
	for i := range m.MIG {
		for range l[m.MIG[i].Name] {
			inst = append(inst, &m.MIG[i])
		}
	}
	if len(inst) > m.MemorySlices {
		return nil, false // every instance needs at least one slice
	}
	sort.SliceStable(inst, func(i, j int) bool { return inst[i].MemorySlices > inst[j].MemorySlices })
	out := make([]Placement, len(inst))
	var try func(i int, used uint32) bool
	try = func(i int, used uint32) bool {
		if i == len(inst) {
			return true
		}
		p := inst[i]
		for _, s := range p.Starts {
			if i > 0 && inst[i-1] == p && s <= out[i-1].Start {
				continue
			}
			bits := uint32(1)<<p.MemorySlices - 1
			bits <<= s
			if used&bits != 0 {
				continue
			}
			out[i] = Placement{Profile: p.Name, Start: s, Size: p.MemorySlices}
			if try(i+1, used|bits) {
				return true
			}
		}
		return false
	}
	if !try(0, 0) {
		return nil, false
	}
	return out, true
}

// fits is the whole validity rule on an already canonical layout.
func fits(m *Model, l Layout) bool {
	if r, _ := countRule(m, l); r != "" {
		return false
	}
	_, ok := place(m, l)
	return ok
}

var validLayoutCache sync.Map // model name -> []Layout

// ValidLayouts lists every non-empty valid layout of model m (nil if m has
// no MIG), ordered by canonical String.
func ValidLayouts(m *Model) []Layout { return cloneLayouts(validLayouts(m)) }

// MaximalLayouts lists the valid layouts of m to which no instance can be
// added, e.g. 3g.40gb x2 or 4g.40gb + 3g.40gb on A100-80GB.
func MaximalLayouts(m *Model) []Layout { return cloneLayouts(maximal(m, validLayouts(m))) }

// validLayouts is computed once per model and shared; never modify it.
func validLayouts(m *Model) []Layout {
	if !m.MIGCapable() {
		return nil
	}
	if v, ok := validLayoutCache.Load(m.Name); ok {
		return v.([]Layout)
	}
	var out []Layout
	cur := Layout{}
	// Validity is monotone (dropping an instance never breaks a placement),
	// so a branch stops as soon as it stops fitting.
	var walk func(i int)
	walk = func(i int) {
		if i == len(m.MIG) {
			if cur.Instances() > 0 {
				out = append(out, cur.normalized())
			}
			return
		}
		p := m.MIG[i]
		for n := 0; n <= p.MaxInstances; n++ {
			cur[p.Name] = n
			if n > 0 && !fits(m, cur) {
				break
			}
			walk(i + 1)
		}
		cur[p.Name] = 0
	}
	walk(0)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	v, _ := validLayoutCache.LoadOrStore(m.Name, out)
	return v.([]Layout)
}

// nearestLayouts are the maximal valid layouts obtained by dropping
// instances from the request: most memory slices used first, then most
// instances, then by canonical string; at most three.
func nearestLayouts(m *Model, req Layout) []Layout {
	var subs []Layout
	for _, l := range validLayouts(m) {
		if req.contains(l) {
			subs = append(subs, l)
		}
	}
	// validLayouts is sorted by String, so a stable sort keeps that as the
	// last tie-breaker.
	out := maximal(m, subs)
	sort.SliceStable(out, func(i, j int) bool {
		si, sj := memorySlicesUsed(m, out[i]), memorySlicesUsed(m, out[j])
		if si != sj {
			return si > sj
		}
		return out[i].Instances() > out[j].Instances()
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return cloneLayouts(out)
}

// maximal keeps the layouts of a downward-closed set (every sub-layout of a
// member is a member, true of valid layouts and of those within a request)
// to which no single instance can be added without leaving the set.
func maximal(m *Model, set []Layout) []Layout {
	in := make(map[countKey]bool, len(set))
	for _, l := range set {
		in[keyOf(m, l)] = true
	}
	var out []Layout
	for _, l := range set {
		k, grows := keyOf(m, l), false
		for i := range m.MIG {
			k[i]++
			grows = in[k]
			k[i]--
			if grows {
				break
			}
		}
		if !grows {
			out = append(out, l)
		}
	}
	return out
}

// countKey is a layout as counts in the model's profile order; profiles
// and counts are few, so a small array serves as a cheap map key.
type countKey [16]int

func keyOf(m *Model, l Layout) countKey {
	var k countKey
	for i, p := range m.MIG {
		k[i] = l[p.Name]
	}
	return k
}

func memorySlicesUsed(m *Model, l Layout) int {
	n := 0
	for _, p := range m.MIG {
		n += l[p.Name] * p.MemorySlices
	}
	return n
}

func cloneLayouts(ls []Layout) []Layout {
	out := make([]Layout, len(ls))
	for i, l := range ls {
		out[i] = l.normalized()
	}
	return out
}
