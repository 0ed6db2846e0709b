package gpu

import (
	"errors"
	"testing"
)

func TestProfileSuffixesParseAndSpell(t *testing.T) {
	for _, c := range []struct {
		in, name, resource string
		g, gb              int
	}{
		{"1g.10gb", "1g.10gb", "nvidia.com/mig-1g.10gb", 1, 10},
		{"1G.10GB.me", "1g.10gb+me", "nvidia.com/mig-1g.10gb.me", 1, 10},
		{"1g.24gb.me.all", "1g.24gb+me.all", "nvidia.com/mig-1g.24gb.me.all", 1, 24},
		{"1g.24gb+me.all", "1g.24gb+me.all", "nvidia.com/mig-1g.24gb.me.all", 1, 24},
		{"2g.48gb.gfx", "2g.48gb+gfx", "nvidia.com/mig-2g.48gb.gfx", 2, 48},
		{"1g.24gb-me", "1g.24gb-me", "nvidia.com/mig-1g.24gb-me", 1, 24},
	} {
		name := normalizeProfileName(c.in)
		g, gb, _, ok := parseProfileName(name)
		if name != c.name || !ok || g != c.g || gb != c.gb {
			t.Errorf("%s: %s %d %d %v", c.in, name, g, gb, ok)
		}
		if r := (Profile{Name: name}).ResourceName(); r != c.resource {
			t.Errorf("%s: resource %s, want %s", c.in, r, c.resource)
		}
		if p, err := ParseResourceName(c.resource); err != nil || p != c.name {
			t.Errorf("ParseResourceName(%s) = %s, %v", c.resource, p, err)
		}
	}
	for _, bad := range []string{"1g.24gb+me+gfx", "1g.24gb-gfx", "1g.24gb+all", "1g.24gb.me.al"} {
		if _, _, _, ok := parseProfileName(normalizeProfileName(bad)); ok {
			t.Errorf("%s parsed", bad)
		}
	}
}

// RTX PRO 6000: four 1g slots on a 12-unit grid; "+me.all" takes every media engine (MIG user
// guide engine counts), so only "-me" instances may share the GPU with it.
func TestRTXPro6000Layouts(t *testing.T) {
	m := mustModel(t, "rtx-pro-6000")
	valid := []string{"4g.96gb", "4g.96gb+gfx", "2g.48gb=2", "2g.48gb,1g.24gb=2", "1g.24gb=4",
		"1g.24gb+me,1g.24gb=3", "1g.24gb+me.all,1g.24gb-me=3", "2g.48gb+me.all,2g.48gb-me",
		"2g.48gb+gfx,1g.24gb+gfx=2", "1g.24gb+me,2g.48gb,1g.24gb-me", "2g.48gb-me,1g.24gb+me.all,1g.24gb-me"}
	for _, s := range valid {
		if err := ValidateLayout(m, mustLayout(t, s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, c := range []struct {
		layout string
		reason LayoutErrorReason
	}{
		{"1g.24gb=5", ReasonTooManyInstances},
		{"4g.96gb,1g.24gb", ReasonDoesNotFit},
		{"2g.48gb=2,1g.24gb", ReasonDoesNotFit},
		{"1g.24gb+me,1g.24gb+me.all", ReasonTooManyMediaExtensions},
		{"1g.24gb+me.all,1g.24gb", ReasonTooManyMediaExtensions},
		{"2g.48gb+me.all,1g.24gb+gfx", ReasonTooManyMediaExtensions},
		{"1g.24gb+me.all=2", ReasonTooManyInstances},
	} {
		err := ValidateLayout(m, mustLayout(t, c.layout))
		var le *LayoutError
		if !errors.As(err, &le) || le.Reason != c.reason {
			t.Errorf("%s: want %s, got %v", c.layout, c.reason, err)
		}
	}
	// The config name of a layout with a "-me" profile reads back.
	l := mustLayout(t, "1g.24gb+me.all,1g.24gb-me=3")
	name, custom := ConfigName(m, l)
	if got, err := Resolve(m, name); !custom || err != nil || !got.Layout.Equal(l) {
		t.Errorf("%s: %s reads back as %v, %v", l, name, got, err)
	}
}
