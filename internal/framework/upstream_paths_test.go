package framework

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"nominalQuota": "nominal_quota", "name": "name", "podIPs": "pod_ips", "URLPath": "url_path",
		"amiSelectorTerms": "ami_selector_terms", "cpuMilliGPU": "cpu_milli_gpu", "http2Enabled": "http2_enabled",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// pathsSchema has what upstream paths meet: list blocks in list blocks, a map, a set, a single
// nested attribute and a list of strings.
func pathsSchema() schema.Schema {
	return schema.Schema{
		Attributes: map[string]schema.Attribute{
			"name":        schema.StringAttribute{Required: true},
			"labels":      schema.MapAttribute{ElementType: types.StringType, Optional: true},
			"node_labels": schema.MapAttribute{ElementType: types.StringType, Optional: true},
			"tolerations": schema.SetNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{"key": schema.StringAttribute{Optional: true}},
			}},
			"preemption": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"reclaim_within_cohort": schema.StringAttribute{Optional: true},
			}},
			"cohort": schema.StringAttribute{Optional: true},
		},
		Blocks: map[string]schema.Block{
			"resource_group": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"covered_resources": schema.ListAttribute{ElementType: types.StringType, Required: true},
				},
				Blocks: map[string]schema.Block{
					"flavor": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
						Attributes: map[string]schema.Attribute{"name": schema.StringAttribute{Required: true}},
						Blocks: map[string]schema.Block{
							"resource": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
								Attributes: map[string]schema.Attribute{
									"name":          schema.StringAttribute{Required: true},
									"nominal_quota": schema.StringAttribute{Required: true},
								},
							}},
						},
					}},
				},
			}},
		},
	}
}

func TestUpstreamAttribute(t *testing.T) {
	renames := map[string]string{
		"spec.resourceGroups":                         "resource_group",
		"spec.resourceGroups[*].flavors":              "resource_group[*].flavor",
		"spec.resourceGroups[*].flavors[*].resources": "resource_group[*].flavor[*].resource",
		"spec.cohortName":                             "cohort",
	}
	for upstream, want := range map[string]string{
		// renames, with the indexes carried
		"spec.resourceGroups[0].flavors[1].resources[2].nominalQuota": "resource_group[0].flavor[1].resource[2].nominal_quota",
		"spec.resourceGroups[0].flavors[1]":                           "resource_group[0].flavor[1]",
		"spec.resourceGroups[3].coveredResources[4]":                  "resource_group[3].covered_resources[4]",
		"spec.resourceGroups":                                         "resource_group",
		"spec.cohortName":                                             "cohort",
		// the generic rule
		"metadata.name":                       "name",
		"metadata.labels":                     "labels",
		"spec.nodeLabels[example.com/team]":   `node_labels["example.com/team"]`,
		"spec.preemption.reclaimWithinCohort": "preemption.reclaim_within_cohort",
		// a set's elements have no index: the set is named
		"spec.tolerations[2].key": "tolerations",
		// no attribute: the resource
		"spec":                            "",
		"<nil>":                           "",
		"spec.template.spec.requirements": "",
		"spec.resourceGroups[x]":          "",
		// a map's key printed as a field, kept as written
		"spec.nodeLabels.example":                                           `node_labels["example"]`,
		"spec.nodeLabels.maxRunDuration":                                    `node_labels["maxRunDuration"]`,
		"spec.resourceGroups[0].flavors[1].resources[2].nominalQuota.extra": "",
	} {
		p, ok := UpstreamAttribute(context.Background(), pathsSchema(), upstream, renames)
		got := ""
		if ok {
			got = p.String()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", upstream, got, want)
		}
	}
}

func TestPointedAttribute(t *testing.T) {
	pointers := []UpstreamPointer{
		{Field: "spec.preemption", Message: "borrowWithinCohort.Policy!=Never", To: "preemption.borrow_within_cohort.policy"},
		{Field: "spec.resourceGroups[*].flavors[*]", Message: "Duplicate value", To: "resource_group[*].flavor[*].name"},
	}
	for _, tc := range []struct{ field, text, want string }{
		{"spec.preemption", "spec.preemption: Invalid value: reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never", "preemption.borrow_within_cohort.policy"},
		{"spec.resourceGroups[0].flavors[3]", `spec.resourceGroups[0].flavors[3]: Duplicate value: {"name":"a"}`, "resource_group[0].flavor[3].name"},
		// another message, a field below or above the pattern: no pointer
		{"spec.preemption", "spec.preemption: Invalid value: other", ""},
		{"spec.resourceGroups[0].flavors[3].name", "Duplicate value", ""},
		{"spec.resourceGroups[0]", "Duplicate value", ""},
	} {
		got, ok := pointedAttribute(tc.field, tc.text, pointers)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("%s %q: got %q, %v; want %q", tc.field, tc.text, got, ok, tc.want)
		}
	}
}
