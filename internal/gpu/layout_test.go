package gpu

import (
	"errors"
	"strings"
	"testing"
)

func TestLayoutErrorMessages(t *testing.T) {
	a100 := mustModel(t, "A100-SXM4-80GB")
	cases := []struct {
		model  *Model
		layout string
		reason LayoutErrorReason
		want   []string
	}{
		{a100, "1g.10gb=3,2g.20gb,3g.40gb", ReasonDoesNotFit, []string{
			"3g.40gb + 2g.20gb + 1g.10gb x2 uses all 8 memory slices; another 1g.10gb does not fit",
			"needs 9 memory slices", "valid: 3g.40gb + 2g.20gb + 1g.10gb x2"}},
		{a100, "3g.40gb=2,1g.10gb", ReasonDoesNotFit, []string{
			"3g.40gb x2 uses all 8 memory slices; 1g.10gb does not fit", "valid: 3g.40gb x2, or 3g.40gb + 1g.10gb"}},
		{a100, "4g.40gb,2g.20gb=2", ReasonDoesNotFit, []string{
			"4g.40gb + 2g.20gb uses 6 of 8 memory slices; another 2g.20gb does not fit (it spans 2 memory slices and can start only at slice 0, 2 or 4)"}},
		{a100, "1g.10gb=8", ReasonTooManyInstances, []string{"at most 7 1g.10gb fit", "valid: 1g.10gb x7"}},
		{a100, "1g.10gb+me=2", ReasonTooManyInstances, []string{"at most 1 1g.10gb+me"}},
		{mustModel(t, "a30"), "1g.6gb+me,2g.12gb+me", ReasonTooManyMediaExtensions, []string{"only one +me", "valid: 2g.12gb+me"}},
		{a100, "1g.5gb=2", ReasonUnknownProfile, []string{`no MIG profile "1g.5gb"`, "1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb"}},
		{mustModel(t, "l4"), "1g.10gb", ReasonNotMIGCapable, []string{"L4 does not support MIG"}},
	}
	for _, c := range cases {
		err := ValidateLayout(c.model, mustLayout(t, c.layout))
		var le *LayoutError
		if !errors.As(err, &le) {
			t.Errorf("%s on %s: want *LayoutError, got %v", c.layout, c.model.Name, err)
			continue
		}
		if le.Reason != c.reason {
			t.Errorf("%s: reason %s, want %s (%v)", c.layout, le.Reason, c.reason, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: message %q lacks %q", c.layout, err, w)
			}
		}
		for _, s := range le.Suggestions {
			if ValidateLayout(c.model, s) != nil || !le.Layout.contains(s) {
				t.Errorf("%s: suggestion %s is not a valid sub-layout", c.layout, s)
			}
		}
	}
}

func TestParseLayout(t *testing.T) {
	cases := map[string]string{
		"3g.40gb=2,1g.10gb=1":      "3g.40gb=2,1g.10gb=1",
		" 1G.10GB = 1 , 3g.40gb=2": "3g.40gb=2,1g.10gb=1", //nolint:gocritic // the spaces are what the parser must accept
		"1g.10gb.me":               "1g.10gb+me=1",
		"1g.10gb,1g.10gb+me=1":     "1g.10gb=1,1g.10gb+me=1",
		"2g.20gb=0,4g.40gb":        "4g.40gb=1",
		"":                         "",
	}
	for in, want := range cases {
		l, err := ParseLayout(in)
		if err != nil {
			t.Errorf("ParseLayout(%q): %v", in, err)
			continue
		}
		if l.String() != want {
			t.Errorf("ParseLayout(%q).String() = %q, want %q", in, l.String(), want)
		}
	}
	for _, bad := range []string{"3g", "3g.40gb=-1", "3g.40gb=x", "3g.40gb=2,3g.40gb=1", "1g.10gb=1001", "a,b", ","} {
		if _, err := ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q) succeeded", bad)
		}
	}
}
