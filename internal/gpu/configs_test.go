package gpu

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// Kubernetes label value syntax (63 characters at most).
var labelValue = regexp.MustCompile(`^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$`)

func TestResolveNamedConfigs(t *testing.T) {
	cases := []struct {
		model, config, layout string
		enabled               bool
	}{
		{"a100-80gb", "all-disabled", "", false},
		{"a100-80gb", "all-enabled", "", true},
		{"a100-80gb", "all-1g.10gb", "1g.10gb=7", true},
		{"a100-40gb", "all-1g.10gb", "1g.10gb=4", true},
		{"a100-40gb", "all-1g.5gb", "1g.5gb=7", true},
		{"a100-80gb", "all-1g.10gb.me", "1g.10gb+me=1", true},
		{"a100-80gb", "ALL-3G.40GB", "3g.40gb=2", true},
		{"a100-80gb", "all-balanced", "3g.40gb=1,2g.20gb=1,1g.10gb=2", true},
		{"a100-40gb", "all-balanced", "3g.20gb=1,2g.10gb=1,1g.5gb=2", true},
		{"h100", "all-balanced", "3g.40gb=1,2g.20gb=1,1g.10gb=2", true},
		{"h100-nvl", "all-balanced", "3g.47gb=1,2g.24gb=1,1g.12gb=2", true},
		{"h200", "all-balanced", "3g.71gb=1,2g.35gb=1,1g.18gb=2", true},
		{"b200", "all-balanced", "3g.90gb=1,2g.45gb=1,1g.23gb=2", true},
		{"a30", "all-balanced", "2g.12gb=1,1g.6gb=2", true},
		{"b200", "all-7g.180gb", "7g.180gb=1", true},
		{"a10g", "all-disabled", "", false},
	}
	for _, c := range cases {
		cfg, err := Resolve(mustModel(t, c.model), c.config)
		if err != nil {
			t.Errorf("%s %s: %v", c.model, c.config, err)
			continue
		}
		if cfg.Name != strings.ToLower(c.config) || cfg.Enabled != c.enabled || cfg.Layout.String() != c.layout || cfg.Custom {
			t.Errorf("%s %s = %+v", c.model, c.config, cfg)
		}
	}
}

func TestResolveLayouts(t *testing.T) {
	m := mustModel(t, "A100-SXM4-80GB")
	cases := map[string]struct {
		name   string
		custom bool
	}{
		"1g.10gb=7":                 {"all-1g.10gb", false},
		"1g.10gb=2,2g.20gb,3g.40gb": {"all-balanced", false},
		"3g.40gb=2":                 {"all-3g.40gb", false},
		"3g.40gb":                   {"custom-3g.40gb-x1", true},
		"4g.40gb,3g.40gb":           {"custom-4g.40gb-x1-3g.40gb-x1", true},
		"1g.10gb.me,1g.10gb=6":      {"custom-1g.10gb-x6-1g.10gb.me-x1", true},
	}
	for in, want := range cases {
		cfg, err := Resolve(m, in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if cfg.Name != want.name || cfg.Custom != want.custom || !cfg.Enabled {
			t.Errorf("%s = %+v, want %s custom=%v", in, cfg, want.name, want.custom)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	a100 := mustModel(t, "a100")
	cases := []struct {
		model  *Model
		in     string
		want   string
		reason LayoutErrorReason
	}{
		{a100, "", "empty MIG config", ""},
		{a100, "all-1g.5gb", "all-1g.10gb, all-1g.10gb.me", ""},
		{a100, "3g.40gb=2,1g.10gb", "1g.10gb does not fit", ReasonDoesNotFit},
		{a100, "bogus", "not a MIG profile name", ""},
		{mustModel(t, "t4"), "all-enabled", "T4 does not support MIG", ReasonNotMIGCapable},
		{mustModel(t, "l40s"), "1g.10gb=1", "L40S does not support MIG", ReasonNotMIGCapable},
	}
	for _, c := range cases {
		_, err := Resolve(c.model, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%s, %q) = %v, want error containing %q", c.model.Name, c.in, err, c.want)
			continue
		}
		var le *LayoutError
		if c.reason != "" && (!errors.As(err, &le) || le.Reason != c.reason) {
			t.Errorf("Resolve(%s, %q): want reason %s, got %v", c.model.Name, c.in, c.reason, err)
		}
	}
}

// TestConfigNamesRoundTrip: every named config maps back to its name, and
// every valid layout of every model gets a usable, unique label value.
func TestConfigNamesRoundTrip(t *testing.T) {
	for _, m := range Models() {
		for _, c := range NamedConfigs(m) {
			if !c.Enabled {
				continue
			}
			if name, custom := ConfigName(m, c.Layout); name != c.Name || custom {
				t.Errorf("%s: ConfigName(%s) = %s, want %s", m.Name, c.Layout, name, c.Name)
			}
			if err := ValidateLayout(m, c.Layout); err != nil {
				t.Errorf("%s %s: %v", m.Name, c.Name, err)
			}
		}
		seen := map[string]string{}
		for _, l := range ValidLayouts(m) {
			name, _ := ConfigName(m, l)
			if cfg, err := Resolve(m, name); err != nil || !cfg.Layout.Equal(l) {
				t.Errorf("%s: Resolve(%s) = %v, %v; want %s", m.Name, name, cfg.Layout, err, l)
			}
			if !labelValue.MatchString(name) {
				t.Errorf("%s: %s is not a label value", m.Name, name)
			}
			if prev, dup := seen[name]; dup {
				t.Errorf("%s: %s and %s both named %s", m.Name, prev, l, name)
			}
			seen[name] = l.String()
		}
	}
}
