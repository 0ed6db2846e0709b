package gpu

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestPartsRoundTrip(t *testing.T) {
	for _, s := range []string{
		"0-3:all-balanced;4-7:all-disabled",
		"0,2,4-5:3g.40gb=2;1,3,6-7:all-disabled",
		"0:1g.10gb=7",
	} {
		parts, err := ParseParts(s)
		if err != nil {
			t.Fatalf("ParseParts(%q): %v", s, err)
		}
		if got := FormatParts(parts); got != s {
			t.Errorf("FormatParts(ParseParts(%q)) = %q", s, got)
		}
	}
	for _, bad := range []string{"all-balanced", "3-1:all-disabled", "x:all-disabled", "0-3:all-balanced;", "-1:all-disabled"} {
		if _, err := ParseParts(bad); err == nil {
			t.Errorf("ParseParts(%q) accepted", bad)
		}
	}
}

// NVIDIA's p4de-half-balanced (mig-parted's README): GPUs 0-3 under all-balanced, 4-7 whole.
func TestExposeHalfBalanced(t *testing.T) {
	e, err := Expose(NodeSpec{InstanceType: "p4de.24xlarge", MIG: "0-3:all-balanced;4-7:all-disabled", Strategy: StrategyMixed})
	if err != nil {
		t.Fatal(err)
	}
	wantNode := map[string]int64{ResourceGPU: 4, "nvidia.com/mig-1g.10gb": 8, "nvidia.com/mig-2g.20gb": 4, "nvidia.com/mig-3g.40gb": 4}
	if !maps.Equal(e.ResourcesPerNode, wantNode) {
		t.Errorf("per node %v, want %v", e.ResourcesPerNode, wantNode)
	}
	if e.ResourcesPerGPU != nil {
		t.Errorf("per GPU %v, want nil: the parts' GPUs expose different things", e.ResourcesPerGPU)
	}
	if got, want := e.NodeLabels[LabelMIGConfig], "custom-0-3-all-balanced-4-7-all-disabled"; got != want {
		t.Errorf("%s = %q, want %q", LabelMIGConfig, got, want)
	}
	if !e.MIG.Enabled || !e.MIG.Custom || len(e.Parts) != 2 {
		t.Errorf("MIG %+v with %d parts, want an enabled custom config of 2 parts", e.MIG, len(e.Parts))
	}
	if got := e.Parts[1].ResourcesPerGPU; !maps.Equal(got, map[string]int64{ResourceGPU: 1}) {
		t.Errorf("the whole part's GPU exposes %v", got)
	}
}

func TestResolvePartsRefusals(t *testing.T) {
	a100 := mustModel(t, "a100-80gb")
	cases := []struct {
		parts string
		part  int
		field PartField
		says  string
	}{
		{"0-3:all-balanced;3-7:all-disabled", 1, PartDevices, "GPU 3 is in part 0 already"},
		{"0-3:all-balanced;4-8:all-disabled", 1, PartDevices, "GPU 8 is not on the node: its 8 GPUs are 0 to 7"},
		{"0-3:all-balanced;4-5:all-disabled", -1, PartDevices, "GPUs 6-7 of the node's 8 are in no part"},
		{"0-3:7g.80gb=2;4-7:all-disabled", 0, PartConfig, "7g.80gb"},
	}
	for _, c := range cases {
		parts, err := ParseParts(c.parts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ResolveParts(a100, 8, parts)
		var pe *PartError
		if !errors.As(err, &pe) || pe.Part != c.part || pe.Field != c.field || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: got %v, want part %d %s saying %q", c.parts, err, c.part, c.field, c.says)
		}
	}
}

func TestExposePartsRefusals(t *testing.T) {
	for spec, says := range map[NodeSpec]string{
		{InstanceType: "p4de.24xlarge", MIG: "0-7:all-1g.10gb", Strategy: StrategySingle}: `needs the "mixed" strategy`,
		{InstanceType: "p4de.24xlarge", MIG: "0-7:all-1g.10gb", Strategy: StrategyMixed,
			TimeSlicing: &TimeSlicing{Replicas: 2}}: "cannot also be time-sliced",
		{InstanceType: "g5.48xlarge", MIG: "0-7:all-disabled", Strategy: StrategyMixed}: "MIG",
	} {
		if _, err := Expose(spec); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%+v: got %v, want an error saying %q", spec, err, says)
		}
	}
}

func TestPartsConfigNameLong(t *testing.T) {
	parts := []ResolvedPart{
		{Devices: []int{0, 2, 4, 6}, MIG: MIGConfig{Name: "custom-3g.40gb-x1-2g.20gb-x1-1g.10gb-x2"}},
		{Devices: []int{1, 3, 5, 7}, MIG: MIGConfig{Name: "all-1g.10gb"}},
	}
	name := PartsConfigName(parts)
	if len(name) > 63 || !strings.HasPrefix(name, customPrefix) {
		t.Errorf("name %q: want a label value with prefix %q", name, customPrefix)
	}
	swapped := slices.Clone(parts)
	swapped[1].MIG.Name = "all-2g.20gb"
	if PartsConfigName(swapped) == name {
		t.Errorf("two different splits share the name %q", name)
	}
}
