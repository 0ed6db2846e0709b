package gpu

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// nvidiaConfig is NVIDIA's mig-parted config format (mig-parted api/spec/v1), as far as the
// test reads it.
type nvidiaConfig struct {
	Version    string                   `json:"version"`
	MigConfigs map[string][]nvidiaEntry `json:"mig-configs"`
}

type nvidiaEntry struct {
	DeviceFilter any            `json:"device-filter"` // absent, a string or a list
	Devices      any            `json:"devices"`       // "all" or a list of GPU indices
	MigEnabled   bool           `json:"mig-enabled"`
	MigDevices   map[string]int `json:"mig-devices"`
}

func (e nvidiaEntry) filter() []string {
	switch f := e.DeviceFilter.(type) {
	case string:
		return []string{f}
	case []any:
		out := make([]string, len(f))
		for i, v := range f {
			out[i] = fmt.Sprint(v)
		}
		return out
	}
	return nil
}

func loadNVIDIADefaultConfig(t *testing.T) nvidiaConfig {
	t.Helper()
	raw, err := os.ReadFile("testdata/gpu-operator-default-mig-parted-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(raw, &cm); err != nil {
		t.Fatal(err)
	}
	var cfg nvidiaConfig
	if err := yaml.Unmarshal([]byte(cm.Data["config.yaml"]), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != "v1" || len(cfg.MigConfigs) < 50 {
		t.Fatalf("read version %q with %d configs; has the file changed?", cfg.Version, len(cfg.MigConfigs))
	}
	return cfg
}

// claims reports whether an entry's device-filter names one of m's PCI ids; an entry without a
// filter names every GPU.
func claims(e nvidiaEntry, m *Model) bool {
	f := e.filter()
	if f == nil {
		return true
	}
	ids := normalizeIDs(f)
	for _, id := range normalizeIDs(m.PCIDeviceIDs) {
		if slices.Contains(ids, id) {
			return true
		}
	}
	return false
}

// entryLayout reads an entry's mig-devices with the catalog's own layout parser.
func entryLayout(t *testing.T, name string, e nvidiaEntry) Layout {
	t.Helper()
	parts := make([]string, 0, len(e.MigDevices))
	for p, n := range e.MigDevices {
		parts = append(parts, fmt.Sprintf("%s=%d", p, n))
	}
	l, err := ParseLayout(strings.Join(parts, ","))
	if err != nil {
		t.Errorf("%s: the catalog cannot read %v: %v", name, e.MigDevices, err)
	}
	return l
}

// TestNVIDIADefaultConfig loads NVIDIA's default mig-parted config (testdata) and finds every
// entry in the catalog: each profile is a profile of the GPUs the entry applies to, each
// layout valid there, and each named config resolves on those GPUs to the entry's layout.
// The other way round, every named config the catalog offers for a model exists in NVIDIA's
// config for that model with the same layout, so a node labelled with it gets what the catalog
// counted. Entries with a per-device layout (devices other than "all") are item 9 of issue 13,
// not expressible yet: they are skipped and listed.
func TestNVIDIADefaultConfig(t *testing.T) {
	cfg := loadNVIDIADefaultConfig(t)
	skipped, checked := checkNVIDIAConfig(t, cfg)
	t.Logf("%d configs, %d (entry, model) pairs resolved; skipped: %d %v", len(cfg.MigConfigs), checked, len(skipped), skipped)
	if checked < 270 {
		t.Errorf("only %d (entry, model) pairs checked", checked)
	}
}

// A per-device entry, as in mig-parted's examples/config.yaml custom-config (GPUs 0-3 whole,
// the others MIG), is listed as skipped rather than failed or half-checked.
func TestNVIDIADefaultConfig_perDeviceEntriesAreSkipped(t *testing.T) {
	cfg := loadNVIDIADefaultConfig(t)
	cfg.MigConfigs["custom-config"] = []nvidiaEntry{
		{Devices: []any{0, 1, 2, 3}, MigEnabled: false},
		{Devices: []any{4, 5, 6, 7}, MigEnabled: true, MigDevices: map[string]int{"1g.5gb": 7}},
	}
	skipped, _ := checkNVIDIAConfig(t, cfg)
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "custom-config[0] (devices [0 1 2 3]") {
		t.Errorf("skipped %v", skipped)
	}
}

// checkNVIDIAConfig is TestNVIDIADefaultConfig's check of cfg; it returns the entries it
// skipped and how many (entry, model) pairs it resolved.
func checkNVIDIAConfig(t *testing.T, cfg nvidiaConfig) (skipped []string, checked int) {
	t.Helper()
	names := make([]string, 0, len(cfg.MigConfigs))
	for n := range cfg.MigConfigs {
		names = append(names, n)
	}
	sort.Strings(names)

	unclaimedIDs := map[string]bool{}
	profiles := map[string]bool{}
	for _, name := range names {
		for i, e := range cfg.MigConfigs[name] {
			where := fmt.Sprintf("%s[%d]", name, i)
			if e.Devices != "all" {
				skipped = append(skipped, fmt.Sprintf("%s (devices %v: a per-device layout, item 9)", where, e.Devices))
				continue
			}
			layout := entryLayout(t, where, e)
			for p := range layout {
				profiles[p] = true
			}
			for _, id := range normalizeIDs(e.filter()) {
				if !claimedByAModel(id) {
					unclaimedIDs[id] = true
				}
			}
			// The models the entry applies to: those it names that offer its profiles. A
			// model it names that lacks them (GB200-189GB under the 0x2941 all-balanced)
			// cannot be given this config and must not be offered it.
			var applies []*Model
			for _, m := range Models() {
				if !claims(e, m) {
					continue
				}
				if !e.MigEnabled || (m.MIGCapable() && offersAll(m, layout)) {
					applies = append(applies, m)
				} else if e.filter() != nil && m.MIGCapable() {
					if _, err := Resolve(m, name); err == nil {
						t.Errorf("%s names %s, which lacks its profiles, yet the catalog offers %s there", where, m.Name, name)
					}
				}
			}
			if len(applies) == 0 {
				t.Errorf("%s (%v, filter %v): no GPU model in the catalog offers %s", where, e.MigDevices, e.filter(), layout.Summary())
				continue
			}
			for _, m := range applies {
				got, err := Resolve(m, name)
				switch {
				case err != nil:
					t.Errorf("%s on %s: %v", where, m.Name, err)
				case got.Enabled != e.MigEnabled || got.Custom || got.Name != name:
					t.Errorf("%s on %s resolves to %+v", where, m.Name, got)
				case e.MigEnabled && !got.Layout.Equal(canonicalLayout(m, layout)):
					t.Errorf("%s on %s: NVIDIA's layout is %s, the catalog's %s", where, m.Name, layout.Summary(), got.Layout.Summary())
				}
				if err := ValidateLayout(m, layout); e.MigEnabled && err != nil {
					t.Errorf("%s on %s: %v", where, m.Name, err)
				}
				checked++
			}
		}
	}

	// Every profile of NVIDIA's config is a profile of some model, and every profile of every
	// model is in NVIDIA's config.
	for _, m := range Models() {
		for _, p := range m.MIG {
			if !profiles[p.Name] {
				t.Errorf("%s %s: not in NVIDIA's default config", m.Name, p.Name)
			}
		}
		for _, c := range NamedConfigs(m) {
			if !offeredByNVIDIA(cfg, m, c) {
				t.Errorf("%s: the catalog offers %s (%s), NVIDIA's default config has no such entry for it",
					m.Name, c.Name, c.Layout.Summary())
			}
		}
	}

	// Every GPU NVIDIA's config names is a model of the catalog, so each of its entries can be
	// given to that GPU.
	ids := make([]string, 0, len(unclaimedIDs))
	for id := range unclaimedIDs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) > 0 {
		t.Errorf("PCI ids in NVIDIA's filters that no model claims: %v", ids)
	}
	t.Logf("%d profiles", len(profiles))
	return skipped, checked
}

// claimedByAModel reports whether id is one of the PCI ids of a catalog model.
func claimedByAModel(id string) bool {
	for _, m := range Models() {
		if slices.Contains(normalizeIDs(m.PCIDeviceIDs), id) {
			return true
		}
	}
	return false
}

// offeredByNVIDIA reports whether NVIDIA's config has, under c's name, an entry for every GPU
// that applies to m with c's layout.
func offeredByNVIDIA(cfg nvidiaConfig, m *Model, c MIGConfig) bool {
	for _, e := range cfg.MigConfigs[c.Name] {
		if e.Devices != "all" || !claims(e, m) || e.MigEnabled != c.Enabled {
			continue
		}
		l := Layout{}
		for p, n := range e.MigDevices {
			l[normalizeProfileName(p)] = n
		}
		if !c.Enabled || (offersAll(m, l) && canonicalLayout(m, l).Equal(c.Layout)) {
			return true
		}
	}
	return false
}

func offersAll(m *Model, l Layout) bool {
	for name := range l {
		if _, err := m.Profile(name); err != nil {
			return false
		}
	}
	return true
}
