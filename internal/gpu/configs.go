package gpu

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
)

// Config names that mig-parted's default config (config-default.yaml, also
// shipped by the GPU Operator) defines for every MIG GPU. "all-<profile>"
// names exist for every profile in this catalog, with "+" written "." and
// the profile's maximum instance count (all-1g.10gb is 7 on A100-80GB and 4
// on A100-40GB, all-1g.10gb.me is one 1g.10gb+me) unless the model's
// NamedConfigCounts says otherwise. TestNVIDIADefaultConfig checks all of
// them against the GPU Operator's default config.
const (
	ConfigAllDisabled = "all-disabled"
	ConfigAllEnabled  = "all-enabled" // MIG on, no instances
	ConfigAllBalanced = "all-balanced"
	allPrefix         = "all-"
	// customPrefix marks names mig-parted does not know: the provider must
	// ship them in its own mig-parted ConfigMap (migManager.config.name).
	customPrefix = "custom-"
)

// MIGConfig is what the MIG manager applies to every GPU of a node.
type MIGConfig struct {
	// Name is the value for the nvidia.com/mig.config node label.
	Name string
	// Enabled is false only for all-disabled.
	Enabled bool
	// Layout is the per-GPU layout; empty when disabled or all-enabled.
	Layout Layout
	// Custom is true when Name is not in mig-parted's default config and
	// must be defined in a custom mig-parted config.
	Custom bool
}

// NamedConfigs lists the default mig-parted configs that apply to m:
// all-disabled, all-enabled, all-<profile> for each profile, all-balanced.
// A model without MIG has only all-disabled.
func NamedConfigs(m *Model) []MIGConfig {
	out := []MIGConfig{{Name: ConfigAllDisabled, Layout: Layout{}}}
	if !m.MIGCapable() {
		return out
	}
	out = append(out, MIGConfig{Name: ConfigAllEnabled, Enabled: true, Layout: Layout{}})
	for _, p := range m.MIG {
		n := p.MaxInstances
		if c, ok := m.NamedConfigCounts[p.Name]; ok {
			n = c
		}
		if n == 0 { // NVIDIA's config leaves this GPU out of all-<profile>
			continue
		}
		out = append(out, MIGConfig{Name: allPrefix + dotted(p.Name), Enabled: true,
			Layout: Layout{p.Name: n}})
	}
	if m.Balanced != nil {
		out = append(out, MIGConfig{Name: ConfigAllBalanced, Enabled: true, Layout: m.Balanced.normalized()})
	}
	return out
}

// Resolve turns a named config ("all-balanced", "all-1g.10gb") or a compact
// layout ("3g.40gb=2") into the MIGConfig for model m, validating the layout
// by placement. Errors name what is allowed.
func Resolve(m *Model, configOrLayout string) (MIGConfig, error) {
	s := strings.ToLower(strings.TrimSpace(configOrLayout))
	if s == "" {
		return MIGConfig{}, fmt.Errorf("empty MIG config for %s: give %s, %s, a named config such as %s, or a layout such as %s",
			m.Name, ConfigAllDisabled, ConfigAllEnabled, ConfigAllBalanced, exampleLayout(m))
	}
	if s == ConfigAllDisabled {
		return MIGConfig{Name: ConfigAllDisabled, Layout: Layout{}}, nil
	}
	if !m.MIGCapable() {
		return MIGConfig{}, &LayoutError{Model: m.Name, Reason: ReasonNotMIGCapable}
	}
	if strings.HasPrefix(s, allPrefix) {
		for _, c := range NamedConfigs(m) {
			if c.Name == s {
				return c, nil
			}
		}
		return MIGConfig{}, fmt.Errorf("%q is not a mig-parted config for %s; known: %s",
			configOrLayout, m.Name, strings.Join(configNames(m), ", "))
	}
	l, err := ParseLayout(s)
	if custom, ok := parseCustomName(s); ok {
		l, err = custom, nil
	}
	if err != nil {
		return MIGConfig{}, fmt.Errorf("%w; or use a named config: %s", err, strings.Join(configNames(m), ", "))
	}
	if err := ValidateLayout(m, l); err != nil {
		return MIGConfig{}, err
	}
	l = canonicalLayout(m, l)
	name, custom := ConfigName(m, l)
	return MIGConfig{Name: name, Enabled: true, Layout: l, Custom: custom}, nil
}

// ConfigName returns the mig-parted config name for layout l on model m: a
// default name when l equals one (all-enabled, all-<profile>, all-balanced),
// else a deterministic custom name such as "custom-3g.40gb-x2" with custom
// set, which needs a custom mig-parted config. It does not validate l.
func ConfigName(m *Model, l Layout) (name string, custom bool) {
	l = l.normalized()
	for _, c := range NamedConfigs(m) {
		if c.Enabled && c.Layout.Equal(l) {
			return c.Name, false
		}
	}
	var parts []string
	for _, p := range l.profiles() {
		parts = append(parts, fmt.Sprintf("%s-x%d", dotted(p), l[p]))
	}
	name = customPrefix + strings.Join(parts, "-")
	if len(name) > 63 { // Kubernetes label values are at most 63 characters
		h := fnv.New32a()
		h.Write([]byte(l.String()))
		name = fmt.Sprintf("%s%08x", customPrefix, h.Sum32())
	}
	return name, true
}

// parseCustomName reads back a name ConfigName made, e.g.
// "custom-3g.40gb-x1-1g.10gb-x2" or "custom-1g.24gb-me-x4", so that an
// existing node label resolves. Hashed names (for very long layouts) cannot
// be read back.
func parseCustomName(s string) (Layout, bool) {
	rest, ok := strings.CutPrefix(s, customPrefix)
	if !ok {
		return nil, false
	}
	var spec []string
	for rest != "" {
		m := customPart.FindStringSubmatch(rest)
		if m == nil {
			return nil, false
		}
		spec = append(spec, m[1]+"="+m[2])
		rest = strings.TrimPrefix(rest[len(m[0]):], "-")
	}
	l, err := ParseLayout(strings.Join(spec, ","))
	return l, err == nil && len(spec) > 0
}

// customPart is one "<profile>-x<count>" of a custom config name; a profile
// may itself contain "-" ("1g.24gb-me").
var customPart = regexp.MustCompile(`^([0-9]+g\.[0-9]+gb(?:\.me\.all|\.me|\.gfx|-me)?)-x([0-9]+)(?:-|$)`)

func configNames(m *Model) []string {
	var out []string
	for _, c := range NamedConfigs(m) {
		out = append(out, c.Name)
	}
	return out
}

func exampleLayout(m *Model) string {
	if m.MIGCapable() {
		p := m.MIG[len(m.MIG)-1]
		return Layout{p.Name: 1}.String()
	}
	return "3g.40gb=2"
}
