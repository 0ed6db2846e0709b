package gpu

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

func mustModel(t testing.TB, alias string) *Model {
	t.Helper()
	m, err := Lookup(alias)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustLayout(t testing.TB, s string) Layout {
	t.Helper()
	l, err := ParseLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestEveryProfileMaxFitsAndMaxPlusOneDoesNot(t *testing.T) {
	for _, m := range Models() {
		for _, p := range m.MIG {
			if err := ValidateLayout(m, Layout{p.Name: p.MaxInstances}); err != nil {
				t.Errorf("%s %s x%d: %v", m.Name, p.Name, p.MaxInstances, err)
			}
			over := Layout{p.Name: p.MaxInstances + 1}
			if err := ValidateLayout(m, over); err == nil {
				t.Errorf("%s %s x%d accepted", m.Name, p.Name, p.MaxInstances+1)
			}
			// The instance limit must follow from the placement table too,
			// except for +me where the one-per-GPU rule sets it.
			if _, ok := place(m, over); ok != p.MediaExtensions {
				t.Errorf("%s %s x%d: placement says %v", m.Name, p.Name, p.MaxInstances+1, ok)
			}
		}
	}
}

// seven-slice shorthand of the reference's mig_layout_rules, by profile ID.
var sevenSliceIDs = map[string]int{"1g": 19, "1g+me": 20, "1g.2mem": 15, "2g": 14, "3g": 9, "4g": 5, "7g": 0}

// generic turns "3g=2,1g.2mem=1" into a layout of m's profile names.
func generic(t *testing.T, m *Model, s string) Layout {
	t.Helper()
	l := Layout{}
	for _, part := range strings.Split(s, ",") {
		name, count, _ := strings.Cut(part, "=")
		n := 1
		if count != "" {
			n = int(count[0] - '0')
		}
		id, ok := sevenSliceIDs[name]
		if !ok {
			t.Fatalf("bad shorthand %q", name)
		}
		for _, p := range m.MIG {
			if p.GIProfileID == id {
				l[p.Name] += n
			}
		}
	}
	return l
}

func sevenSliceModels() []*Model {
	var out []*Model
	for _, m := range Models() {
		if m.MemorySlices == 8 {
			out = append(out, m)
		}
	}
	return out
}

// TestReferenceSpotChecks: gpu_reference.yaml mig_layout_rules.spot_checks_seven_slice.
func TestReferenceSpotChecks(t *testing.T) {
	checks := map[string]bool{
		"4g,2g,1g": true, "4g=2": false, "3g=2": true, "3g=2,1g": false, "4g,3g": true,
		"3g,2g,1g=2": true, "2g=3,1g": true, "1g=7": true, "1g=8": false,
		"1g.2mem=4": true, "4g,1g.2mem=2": true, "3g,2g=2": true,
	}
	for _, m := range sevenSliceModels() {
		for s, want := range checks {
			err := ValidateLayout(m, generic(t, m, s))
			if (err == nil) != want {
				t.Errorf("%s %s: valid=%v, want %v (%v)", m.Name, s, err == nil, want, err)
			}
		}
	}
}

// TestA100DocumentedCombinations: the MIG user guide's A100 diagram of valid
// combinations (as multisets) and its worked examples (3g.20gb x2,
// 3-2-1-1, 2-1-1-1-1-1), on A100-SXM4-40GB names.
func TestA100DocumentedCombinations(t *testing.T) {
	m := mustModel(t, "A100-SXM4-40GB")
	for _, s := range []string{
		"7g.40gb", "4g.20gb,3g.20gb", "4g.20gb,2g.10gb,1g.5gb", "4g.20gb,1g.5gb=3",
		"3g.20gb=2", "3g.20gb,2g.10gb,1g.5gb", "3g.20gb,1g.5gb=3", "3g.20gb,2g.10gb=2",
		"3g.20gb,2g.10gb,1g.5gb=2", "3g.20gb,1g.5gb=4", "2g.10gb=3,1g.5gb",
		"2g.10gb=2,1g.5gb=3", "2g.10gb,1g.5gb=5", "1g.5gb=7",
		"1g.10gb=4", "4g.20gb,1g.10gb,1g.5gb=2", "1g.5gb+me,1g.5gb=6",
	} {
		if err := ValidateLayout(m, mustLayout(t, s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestMaximalLayoutsMatchReference: the reference enumerated 77 valid
// layouts and 28 maximal ones on seven-slice GPUs (without +me) and 9 on
// A30; our search must find exactly the same sets.
func TestMaximalLayoutsMatchReference(t *testing.T) {
	refMaximal := []string{
		"1g=2,1g.2mem,2g=2", "1g=2,1g.2mem,4g", "1g=2,2g,3g", "1g=4,1g.2mem,2g", "1g=4,3g",
		"1g=6,1g.2mem", "1g.2mem,2g,4g", "1g.2mem,2g=3", "2g=2,3g", "3g,4g", "7g",
		"1g,2g,4g", "1g,2g=3", "1g=3,2g=2", "1g=3,4g", "1g=5,2g", "1g=7",
		"1g=2,1g.2mem,3g", "1g=2,1g.2mem=2,2g", "1g=4,1g.2mem=2", "1g.2mem,2g,3g",
		"1g.2mem=2,2g=2", "1g.2mem=2,4g", "3g=2", "1g=2,1g.2mem=3", "1g.2mem=2,3g",
		"1g.2mem=3,2g", "1g.2mem=4",
	}
	for _, m := range sevenSliceModels() {
		var want, got []string
		for _, s := range refMaximal {
			want = append(want, generic(t, m, s).String())
		}
		for _, l := range MaximalLayouts(m) {
			if !hasMediaExtension(m, l) {
				got = append(got, l.String())
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s maximal layouts:\n got %v\nwant %v", m.Name, got, want)
		}
		if n := countWithoutME(m, ValidLayouts(m)); n != 77 {
			t.Errorf("%s: %d valid layouts without +me, reference says 77", m.Name, n)
		}
	}
	a30 := mustModel(t, "a30")
	if n := countWithoutME(a30, ValidLayouts(a30)); n != 9 {
		t.Errorf("A30: %d valid layouts without +me, reference says 9", n)
	}
	if n := countWithoutME(a30, MaximalLayouts(a30)); n != 4 {
		t.Errorf("A30: %d maximal layouts without +me, reference says 4", n)
	}
}

func hasMediaExtension(m *Model, l Layout) bool {
	for _, p := range m.MIG {
		if p.MediaExtensions && l[p.Name] > 0 {
			return true
		}
	}
	return false
}

func countWithoutME(m *Model, ls []Layout) int {
	n := 0
	for _, l := range ls {
		if !hasMediaExtension(m, l) {
			n++
		}
	}
	return n
}

func TestA30Layouts(t *testing.T) {
	m := mustModel(t, "A30-24GB")
	valid := []string{"4g.24gb", "2g.12gb=2", "2g.12gb,1g.6gb=2", "1g.6gb=4", "2g.12gb+me,2g.12gb", "1g.6gb+me,1g.6gb=3"}
	invalid := []string{"4g.24gb,1g.6gb", "2g.12gb=2,1g.6gb", "1g.6gb+me,2g.12gb+me", "2g.12gb+me=2", "1g.6gb=5"}
	for _, s := range valid {
		if err := ValidateLayout(m, mustLayout(t, s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range invalid {
		if err := ValidateLayout(m, mustLayout(t, s)); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
}

// TestComputeSumIsNotEnough: layouts whose compute slices sum to 7 or less
// but which cannot be placed.
func TestComputeSumIsNotEnough(t *testing.T) {
	m := mustModel(t, "A100-SXM4-80GB")
	for _, s := range []string{"3g.40gb=2,1g.10gb", "4g.40gb,2g.20gb=2", "3g.40gb,1g.20gb=3", "1g.20gb=4,1g.10gb"} {
		err := ValidateLayout(m, mustLayout(t, s))
		var le *LayoutError
		if !errors.As(err, &le) || le.Reason != ReasonDoesNotFit {
			t.Errorf("%s: want does-not-fit, got %v", s, err)
		}
	}
}

func TestPlaceLayoutOfGuideExample(t *testing.T) {
	// 3-2-1-1 from the MIG user guide, which observed 3g.20gb at slice 4:
	// at slice 0 it would leave only slots 4-7, where 2g + 1g + 1g cannot
	// go because 1g never uses slice 7.
	m := mustModel(t, "A100-SXM4-40GB")
	ps, err := PlaceLayout(m, mustLayout(t, "3g.20gb,2g.10gb,1g.5gb=2"))
	if err != nil {
		t.Fatal(err)
	}
	if ps[0].Profile != "3g.20gb" || ps[0].Start != 4 {
		t.Errorf("unexpected placement %+v", ps)
	}
	checkPlacements(t, m, mustLayout(t, "3g.20gb,2g.10gb,1g.5gb=2"), ps)
}

func checkPlacements(t *testing.T, m *Model, l Layout, ps []Placement) {
	t.Helper()
	var used uint32
	got := Layout{}
	me := 0
	for _, pl := range ps {
		p, err := m.Profile(pl.Profile)
		if err != nil {
			t.Fatalf("placement of unknown profile %s", pl.Profile)
		}
		okStart := false
		for _, s := range p.Starts {
			okStart = okStart || s == pl.Start
		}
		bits := uint32(1)<<pl.Size - 1
		bits <<= pl.Start
		if !okStart || pl.Size != p.MemorySlices || used&bits != 0 {
			t.Fatalf("%s: bad placement %+v in %+v", m.Name, pl, ps)
		}
		used |= bits
		got[p.Name]++
		if p.MediaExtensions {
			me++
		}
	}
	if me > 1 || !got.Equal(canonicalLayout(m, l)) {
		t.Fatalf("%s: placements %+v do not match layout %s", m.Name, ps, l)
	}
}
