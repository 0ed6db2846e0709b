package gpu

import (
	"errors"
	"testing"
)

// FuzzParseAndValidateLayout: parsing and validating any string on any model
// never panics, the canonical form round-trips, an accepted layout has a
// real placement, and every suggestion in a rejection is itself valid.
func FuzzParseAndValidateLayout(f *testing.F) {
	for _, s := range []string{
		"3g.40gb=2,1g.10gb=1", "1g.10gb=3,2g.20gb,3g.40gb", "1g.10gb=7", "1g.10gb=8",
		"4g.40gb,3g.40gb", "1g.10gb+me,1g.10gb=6", "1g.10gb.me=2", "7g.80gb", "",
		"1g.5gb=2,2g.10gb,3g.20gb", "1g.6gb+me,2g.12gb+me", "all-balanced", "1g.10gb=1000",
		" 3G.40GB = 1 ,, ", "2g.20gb=3,1g.20gb", "1g.23gb=2,2g.45gb,3g.90gb", "=,=",
	} {
		for i := range Models() {
			f.Add(s, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, s string, idx uint8) {
		m := Models()[int(idx)%len(Models())]
		_, _ = Resolve(m, s) // must not panic
		l, err := ParseLayout(s)
		if err != nil {
			return
		}
		again, err := ParseLayout(l.String())
		if err != nil || !again.Equal(l) || again.String() != l.String() {
			t.Fatalf("round trip of %q: %q -> %v, %v", s, l.String(), again, err)
		}
		ps, err := PlaceLayout(m, l)
		if err == nil {
			checkPlacements(t, m, l, ps)
			return
		}
		var le *LayoutError
		if !errors.As(err, &le) || err.Error() == "" {
			t.Fatalf("%s on %s: want a *LayoutError, got %v", l, m.Name, err)
		}
		for _, sug := range le.Suggestions {
			if ValidateLayout(m, sug) != nil {
				t.Fatalf("%s on %s: suggestion %s is not valid", l, m.Name, sug)
			}
		}
	})
}
