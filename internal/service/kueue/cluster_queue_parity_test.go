package kueue_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// One table for both sides of the validation: each case is a ClusterQueue or Cohort spec, written
// once as the Kubernetes object. The test renders it as the resource's HCL and plans it (the
// provider must refuse it at plan, naming the attribute, with no API call), and creates it with a
// dry run against a cluster running Kueue's webhooks (Kueue must refuse it too). Valid cases must
// pass on both sides. So the provider's checks and Kueue's cannot drift apart unnoticed.

type parityCase struct {
	name   string
	cohort bool           // a Cohort; else a ClusterQueue
	spec   map[string]any // the object's spec
	plan   string         // regexp of the plan error; "" for a valid case
	api    string         // substring of Kueue's refusal; "" for a valid case
	source string         // where Kueue makes the check
}

func rg(covered []string, flavors ...any) map[string]any {
	c := make([]any, len(covered))
	for i, r := range covered {
		c[i] = r
	}
	if flavors == nil {
		flavors = []any{}
	}
	return map[string]any{"coveredResources": c, "flavors": flavors}
}

func fq(name string, resources ...any) map[string]any {
	return map[string]any{"name": name, "resources": resources}
}

// rq is a resource quota; limits are "borrowingLimit", value, "lendingLimit", value.
func rq(name, nominal string, limits ...string) map[string]any {
	out := map[string]any{"name": name, "nominalQuota": nominal}
	for i := 0; i+1 < len(limits); i += 2 {
		out[limits[i]] = limits[i+1]
	}
	return out
}

func groups(gs ...any) []any { return gs }

// twoFlavors is one GPU group of on-demand then spot, in order of preference.
func twoFlavors() map[string]any {
	return rg([]string{"nvidia.com/gpu"}, fq("on-demand", rq("nvidia.com/gpu", "8")), fq("spot", rq("nvidia.com/gpu", "8")))
}

// gpuGroup is a valid GPU quota on one flavor.
func gpuGroup(flavor string, limits ...string) map[string]any {
	return rg([]string{"nvidia.com/gpu", "cpu", "memory"},
		fq(flavor, rq("nvidia.com/gpu", "15", limits...), rq("cpu", "96"), rq("memory", "1Ti")))
}

// many builds n groups (or flavors) with generated names.
func manyGroups(n, flavorsEach, resourcesEach int) []any {
	var out []any
	for i := range n {
		var covered []string
		for k := range resourcesEach {
			covered = append(covered, fmt.Sprintf("example.com/r%d-%d", i, k))
		}
		var flavors []any
		for j := range flavorsEach {
			var rs []any
			for _, r := range covered {
				rs = append(rs, rq(r, "1"))
			}
			flavors = append(flavors, fq(fmt.Sprintf("f%d-%d", i, j), rs...))
		}
		out = append(out, rg(covered, flavors...))
	}
	return out
}

func parityCases() []parityCase {
	const cel, crd, webhook = "CEL", "CRD", "webhook"
	return []parityCase{
		// Valid: both sides accept.
		{name: "valid queue", spec: map[string]any{"cohortName": "team", "resourceGroups": groups(gpuGroup("a100", "borrowingLimit", "0", "lendingLimit", "15"))}},
		{name: "valid empty queue", spec: map[string]any{}},
		{name: "valid selector", spec: map[string]any{"namespaceSelector": map[string]any{
			"matchLabels":      map[string]any{"mlplatform.io/team": "research"},
			"matchExpressions": []any{map[string]any{"key": "tier", "operator": "Exists"}},
		}}},
		{name: "valid preemption", spec: map[string]any{"preemption": map[string]any{
			"reclaimWithinCohort": "LowerPriority", "withinClusterQueue": "LowerOrNewerEqualPriority",
			"borrowWithinCohort": map[string]any{"policy": "LowerPriority", "maxPriorityThreshold": int64(100)},
		}}},
		{name: "valid fungibility", spec: map[string]any{"flavorFungibility": map[string]any{
			"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "TryNextFlavor", "preference": "PreemptionOverBorrowing"}}},
		{name: "valid zero weight", spec: map[string]any{"fairSharing": map[string]any{"weight": "0"}}},
		{name: "valid cohort lends above nominal", cohort: true, spec: map[string]any{"parentName": "org",
			"resourceGroups": groups(gpuGroup("a100", "lendingLimit", "20"))}},

		// Quotas.
		{name: "quota out of order", source: webhook, spec: map[string]any{"resourceGroups": groups(rg([]string{"nvidia.com/gpu", "cpu"},
			fq("a100", rq("cpu", "1"), rq("nvidia.com/gpu", "1"))))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.name: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.name: Invalid value: "cpu": must match the name in coveredResources`, api: "must match the name in coveredResources"},
		{name: "fewer quotas than covered", source: cel, spec: map[string]any{"resourceGroups": groups(rg([]string{"nvidia.com/gpu", "cpu"},
			fq("a100", rq("nvidia.com/gpu", "1"))))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource has 1 blocks`, api: "flavors must have the same number of resources as the coveredResources"},
		{name: "resource in two groups", source: webhook, spec: map[string]any{"resourceGroups": groups(
			rg([]string{"nvidia.com/gpu"}, fq("a100", rq("nvidia.com/gpu", "1"))),
			rg([]string{"nvidia.com/gpu"}, fq("h100", rq("nvidia.com/gpu", "1"))))},
			plan: `Attribute resource_group\[1\]\.covered_resources\[0\]: spec\.resourceGroups\[1\]\.coveredResources\[0\]: Duplicate value: "nvidia\.com/gpu"`, api: "Duplicate value"},
		{name: "flavor in two groups", source: webhook, spec: map[string]any{"resourceGroups": groups(
			rg([]string{"nvidia.com/gpu"}, fq("a100", rq("nvidia.com/gpu", "1"))),
			rg([]string{"cpu"}, fq("a100", rq("cpu", "1"))))},
			plan: `Attribute resource_group\[1\]\.flavor\[0\]\.name: spec\.resourceGroups\[1\]\.flavors\[0\]\.name: Duplicate value: "a100"`, api: "Duplicate value"},
		{name: "flavor twice in a group", source: crd, spec: map[string]any{"resourceGroups": groups(
			rg([]string{"cpu"}, fq("a100", rq("cpu", "1")), fq("a100", rq("cpu", "2"))))},
			plan: `Attribute resource_group\[0\]\.flavor\[1\]\.name: spec\.resourceGroups\[0\]\.flavors\[1\]: Duplicate value: \{"name":"a100"\}`, api: "Duplicate value"},
		{name: "group without flavors", source: crd, spec: map[string]any{"resourceGroups": groups(rg([]string{"cpu"}))},
			plan: `Attribute resource_group\[0\]\.flavor: spec\.resourceGroups\[0\]\.flavors: Required value`, api: "flavors"},
		{name: "17 resource groups", source: crd, spec: map[string]any{"resourceGroups": manyGroups(17, 1, 1)},
			plan: `Attribute resource_group: spec\.resourceGroups: Too many: 17: must have at most 16 items`, api: "must have at most 16 items"},
		{name: "65 covered resources", source: crd, spec: map[string]any{"resourceGroups": manyGroups(1, 1, 65)},
			plan: `Attribute resource_group\[0\]\.covered_resources: spec\.resourceGroups\[0\]\.coveredResources: Too many: 65: must have at most 64 items`, api: "must have at most 64 items"},
		{name: "over 256 flavors", source: webhook, spec: map[string]any{"resourceGroups": manyGroups(16, 17, 1)},
			plan: `Attribute resource_group: spec\.resourceGroups: Invalid value: 272: total number of flavors across all resourceGroups must be ≤ 256, got 272`, api: "total number of flavors across all resourceGroups must be ≤ 256"},
		{name: "over 256 covered resources", source: webhook, spec: map[string]any{"resourceGroups": manyGroups(5, 1, 52)},
			plan: `Attribute resource_group: spec\.resourceGroups: Invalid value: 260: total number of covered resources across all resourceGroups must be ≤ 256, got 260`, api: "total number of covered resources"},
		{name: "over 512 flavor-resource pairs", source: webhook, spec: map[string]any{"resourceGroups": manyGroups(1, 64, 9)},
			plan: `Attribute resource_group\[0\]: spec\.resourceGroups\[0\]: Invalid value: 576: number of flavor-resource combinations in a resourceGroup must be ≤ 512, got 576`, api: "number of flavor-resource combinations"},
		{name: "bad resource name", source: webhook, spec: map[string]any{"resourceGroups": groups(rg([]string{"GPU!"}, fq("a100", rq("GPU!", "1"))))},
			plan: `"GPU!" is not a valid Kubernetes key`, api: "coveredResources[0]"},
		{name: "bad flavor name", source: crd, spec: map[string]any{"resourceGroups": groups(rg([]string{"cpu"}, fq("A100", rq("cpu", "1"))))},
			plan: `"A100" is not a valid Kubernetes name`, api: "flavors[0].name"},
		{name: "unparseable quantity", source: crd + " pattern; the webhook's decoding refuses it first", spec: map[string]any{"resourceGroups": groups(rg([]string{"nvidia.com/gpu"}, fq("a100", rq("nvidia.com/gpu", "15 GPUs"))))},
			plan: `"15 GPUs" is not a Kubernetes quantity`, api: "quantities must match the regular expression"},
		{name: "negative nominal quota", source: webhook, spec: map[string]any{"resourceGroups": groups(rg([]string{"cpu"}, fq("a100", rq("cpu", "-1"))))},
			plan: `nominal_quota: "-1" must be greater than or equal to 0`, api: "must be greater than or equal to 0"},
		{name: "negative borrowing limit", source: webhook, spec: map[string]any{"cohortName": "team", "resourceGroups": groups(rg([]string{"cpu"}, fq("a100", rq("cpu", "1", "borrowingLimit", "-2"))))},
			plan: `borrowing_limit: "-2" must be greater than or equal to 0`, api: "must be greater than or equal to 0"},
		{name: "borrowing limit without cohort", source: cel + " and " + webhook, spec: map[string]any{"resourceGroups": groups(gpuGroup("a100", "borrowingLimit", "5"))},
			plan: `borrowing_limit may only be set when cohort is set`, api: "borrowingLimit must be nil when cohort is empty"},
		{name: "lending limit without cohort", source: webhook, spec: map[string]any{"resourceGroups": groups(gpuGroup("a100", "lendingLimit", "5"))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.lending_limit: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.lendingLimit: Invalid value: "5": must be nil when cohort is empty`, api: "must be nil when cohort is empty"},
		{name: "lending limit above nominal", source: webhook, spec: map[string]any{"cohortName": "team", "resourceGroups": groups(gpuGroup("a100", "lendingLimit", "16"))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.lending_limit: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.lendingLimit: Invalid value: "16": must be less than or equal to the nominalQuota`, api: "must be less than or equal to the nominalQuota"},

		// Other spec fields.
		{name: "bad cohort name", source: crd, spec: map[string]any{"cohortName": "Team_A"},
			plan: `Attribute cohort: "Team_A" is not a valid`, api: "cohortName"},
		{name: "bad queueing strategy", source: crd, spec: map[string]any{"queueingStrategy": "FIFO"},
			plan: `Attribute queueing_strategy value must be one of`, api: "Unsupported value"},
		{name: "bad stop policy", source: crd, spec: map[string]any{"stopPolicy": "Pause"},
			plan: `Attribute stop_policy value must be one of`, api: "Unsupported value"},
		{name: "reclaim Never, borrow LowerPriority", source: cel + " and " + webhook, spec: map[string]any{"preemption": map[string]any{
			"reclaimWithinCohort": "Never", "borrowWithinCohort": map[string]any{"policy": "LowerPriority"}}},
			plan: `Attribute preemption\.borrow_within_cohort\.policy: spec\.preemption: Invalid value: .*reclaimWithinCohort=Never and borrowWithinCohort\.Policy!=Never`, api: "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"},
		{name: "reclaim unset, borrow LowerPriority", source: cel + " and " + webhook, spec: map[string]any{"preemption": map[string]any{
			"borrowWithinCohort": map[string]any{"policy": "LowerPriority"}}},
			plan: `Attribute preemption\.borrow_within_cohort\.policy: spec\.preemption: Invalid value: .*reclaimWithinCohort=Never and borrowWithinCohort\.Policy!=Never`, api: "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"},
		{name: "bad preemption policy", source: crd, spec: map[string]any{"preemption": map[string]any{"withinClusterQueue": "Any"}},
			plan: `preemption\.within_cluster_queue value must be one of`, api: "Unsupported value"},
		{name: "threshold beyond int32", source: crd, spec: map[string]any{"preemption": map[string]any{
			"reclaimWithinCohort": "Any", "borrowWithinCohort": map[string]any{"policy": "LowerPriority", "maxPriorityThreshold": int64(3000000000)}}},
			plan: `max_priority_threshold value must be between`, api: "maxPriorityThreshold"},
		{name: "preference without TryNextFlavor", source: cel + " and " + webhook, spec: map[string]any{"flavorFungibility": map[string]any{"preference": "BorrowingOverPreemption"}},
			plan: `Attribute flavor_fungibility\.preference: spec\.flavorFungibility: Invalid value: preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor`, api: "preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor"},
		{name: "weight 1n", source: webhook, spec: map[string]any{"fairSharing": map[string]any{"weight": "1n"}},
			plan: `Attribute fair_sharing_weight: spec\.fairSharing: Invalid value: "[^"]+": When not 0, weight must be > 10e-9`, api: "weight must be > 10e-9"},
		{name: "negative weight", source: webhook, spec: map[string]any{"fairSharing": map[string]any{"weight": "-1"}},
			plan: `fair_sharing_weight: "-1" must be greater than or equal to 0`, api: "must be greater than or equal to 0"},
		{name: "selector In without values", source: webhook, spec: map[string]any{"namespaceSelector": map[string]any{
			"matchExpressions": []any{map[string]any{"key": "team", "operator": "In"}}}},
			plan: `Attribute namespace_selector\.match_expressions\[0\]\.values: spec\.namespaceSelector\.matchExpressions\[0\]\.values: Required value: must be specified when .operator. is 'In' or 'NotIn'`, api: "must be specified when `operator` is 'In' or 'NotIn'"},
		{name: "selector Exists with values", source: webhook, spec: map[string]any{"namespaceSelector": map[string]any{
			"matchExpressions": []any{map[string]any{"key": "team", "operator": "Exists", "values": []any{"a"}}}}},
			plan: `Attribute namespace_selector\.match_expressions\[0\]\.values: spec\.namespaceSelector\.matchExpressions\[0\]\.values: Forbidden: may not be specified when .operator. is 'Exists' or 'DoesNotExist'`, api: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"},
		{name: "selector bad operator", source: webhook, spec: map[string]any{"namespaceSelector": map[string]any{
			"matchExpressions": []any{map[string]any{"key": "team", "operator": "Equals", "values": []any{"a"}}}}},
			plan: `operator value must be one of`, api: "not a valid selector operator"},
		{name: "selector bad label value", source: webhook, spec: map[string]any{"namespaceSelector": map[string]any{
			"matchLabels": map[string]any{"team": "a b"}}},
			plan: `"a b" is not a valid Kubernetes label value`, api: "matchLabels"},
		{name: "admission check twice", source: crd, spec: map[string]any{"admissionChecksStrategy": map[string]any{"admissionChecks": []any{
			map[string]any{"name": "prov"}, map[string]any{"name": "prov"}}}},
			plan: `Attribute admission_checks_strategy\[1\]\.name: spec\.admissionChecksStrategy\.admissionChecks\[1\]: Duplicate value: \{"name":"prov"\}`, api: "Duplicate value"},
		{name: "admission check flavor twice", source: crd, spec: map[string]any{"admissionChecksStrategy": map[string]any{"admissionChecks": []any{
			map[string]any{"name": "prov", "onFlavors": []any{"a100", "a100"}}}}},
			plan: `Attribute admission_checks_strategy\[0\]\.on_flavors: spec\.admissionChecksStrategy\.admissionChecks\[0\]\.onFlavors\[1\]: Duplicate value: "a100"`, api: "Duplicate value"},
		{name: "admission check on a flavor the queue lacks", source: webhook, spec: map[string]any{
			"resourceGroups":          groups(gpuGroup("a100")),
			"admissionChecksStrategy": map[string]any{"admissionChecks": []any{map[string]any{"name": "prov", "onFlavors": []any{"h100"}}}}},
			plan: `Attribute admission_checks_strategy\[0\]\.on_flavors\[0\]: spec\.admissionChecksStrategy\.admissionChecks\[0\]\.onFlavors\[0\]: Unsupported value: "h100"`, api: `Unsupported value: "h100"`},
		{name: "valid admission checks", spec: map[string]any{
			"resourceGroups": groups(gpuGroup("a100")),
			"admissionChecksStrategy": map[string]any{"admissionChecks": []any{
				map[string]any{"name": "prov", "onFlavors": []any{"a100"}}, map[string]any{"name": "other"}}}}},

		// Concurrent admission (alpha gate ConcurrentAdmission, on in both the provider and the test's Kueue).
		{name: "valid concurrent admission", spec: map[string]any{"resourceGroups": groups(twoFlavors()),
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "TryPreferredFlavors",
				"constraints": map[string]any{"lastAcceptableFlavorName": "spot"}}}}},
		{name: "concurrent admission with two groups", source: webhook, spec: map[string]any{
			"resourceGroups":            groups(gpuGroup("a100"), rg([]string{"cpu"}, fq("cpu", rq("cpu", "8")))),
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "RetainFirstAdmission"}}},
			plan: `Attribute resource_group: spec\.resourceGroups: Invalid value: 2: must have exactly one ResourceGroup when ConcurrentAdmissionPolicy is defined`,
			api:  "must have exactly one ResourceGroup when ConcurrentAdmissionPolicy is defined"},
		{name: "concurrent admission with StrictFIFO", source: webhook, spec: map[string]any{"resourceGroups": groups(twoFlavors()),
			"queueingStrategy":          "StrictFIFO",
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "TryPreferredFlavors"}}},
			plan: `Attribute queueing_strategy: spec\.queueingStrategy: Invalid value: "StrictFIFO": StrictFIFO queueing strategy cannot be used when ConcurrentAdmissionPolicy is defined`,
			api:  "StrictFIFO queueing strategy cannot be used"},
		{name: "concurrent admission constraints without migration", source: webhook, spec: map[string]any{"resourceGroups": groups(twoFlavors()),
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "RetainFirstAdmission",
				"constraints": map[string]any{"lastAcceptableFlavorName": "spot"}}}},
			plan: `Attribute concurrent_admission_policy\.migration\.constraints: spec\.concurrentAdmissionPolicy\.migration\.constraints: Forbidden: may only be set when migration\.mode is "TryPreferredFlavors"`,
			api:  "may only be set when migration.mode"},
		{name: "concurrent admission last flavor not the queue's", source: webhook, spec: map[string]any{"resourceGroups": groups(twoFlavors()),
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "TryPreferredFlavors",
				"constraints": map[string]any{"lastAcceptableFlavorName": "h100"}}}},
			plan: `Attribute concurrent_admission_policy\.migration\.constraints\.last_acceptable_flavor_name: spec\.concurrentAdmissionPolicy\.migration\.constraints\.lastAcceptableFlavorName: Invalid value: "h100": must be one of the flavors defined in the ClusterQueue`,
			api:  "must be one of the flavors defined in the ClusterQueue"},
		{name: "concurrent admission unknown mode", source: crd, spec: map[string]any{"resourceGroups": groups(twoFlavors()),
			"concurrentAdmissionPolicy": map[string]any{"migration": map[string]any{"mode": "Always"}}},
			plan: `concurrent_admission_policy\.migration\.mode value must be one of`, api: "Unsupported value"},

		// Cohorts.
		{name: "cohort borrowing limit without parent", cohort: true, source: webhook, spec: map[string]any{"resourceGroups": groups(gpuGroup("a100", "borrowingLimit", "1"))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.borrowing_limit: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.borrowingLimit: Invalid value: "1": must be nil when parent is empty`, api: "must be nil when parent is empty"},
		{name: "cohort lending limit without parent", cohort: true, source: webhook, spec: map[string]any{"resourceGroups": groups(gpuGroup("a100", "lendingLimit", "1"))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.lending_limit: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.lendingLimit: Invalid value: "1": must be nil when parent is empty`, api: "must be nil when parent is empty"},
		{name: "cohort negative quota", cohort: true, source: webhook, spec: map[string]any{"resourceGroups": groups(rg([]string{"cpu"}, fq("a100", rq("cpu", "-4"))))},
			plan: `nominal_quota: "-4" must be greater than or equal to 0`, api: "must be greater than or equal to 0"},
		{name: "cohort quota out of order", cohort: true, source: webhook, spec: map[string]any{"resourceGroups": groups(rg([]string{"nvidia.com/gpu", "cpu"},
			fq("a100", rq("cpu", "1"), rq("nvidia.com/gpu", "1"))))},
			plan: `Attribute resource_group\[0\]\.flavor\[0\]\.resource\[0\]\.name: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.name: Invalid value: "cpu": must match the name in coveredResources`, api: "must match the name in coveredResources"},
		{name: "cohort bad parent", cohort: true, source: crd, spec: map[string]any{"parentName": "Org"},
			plan: `Attribute parent: "Org" is not a valid`, api: "parentName"},
		{name: "cohort weight 1n", cohort: true, source: webhook, spec: map[string]any{"fairSharing": map[string]any{"weight": "0.5n"}},
			plan: `Attribute fair_sharing_weight: spec\.fairSharing: Invalid value: "[^"]+": When not 0, weight must be > 10e-9`, api: "weight must be > 10e-9"},
	}
}

// TestQueueValidation_matchesKueue checks every case at plan and against Kueue's webhooks. Both
// sides need an acceptance run: the plan runs Terraform.
func TestQueueValidation_matchesKueue(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs Terraform and needs Kueue: set TF_ACC=1")
	}
	requireKueue(t)
	for i, tc := range parityCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tfType, kind := "mlplatform_cluster_queue", "ClusterQueue"
			if tc.cohort {
				tfType, kind = "mlplatform_cohort", "Cohort"
			}
			config := func(host string) string {
				return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf("resource %q \"test\" {\n  name = \"parity\"\n%s}\n", tfType, specHCL(tc.spec))
			}
			if tc.plan == "" {
				acctest.PlanWithoutAPICalls(t, config, nil)
			} else {
				acctest.RefusedAtPlan(t, config, tc.plan)
			}
			k := kueue.ClusterQueueKind
			if tc.cohort {
				k = kueue.CohortKind
			}
			obj := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": kind,
				"metadata": map[string]any{"name": acctest.Name(fmt.Sprintf("parity-%d", i))},
				"spec":     tc.spec,
			}}
			_, err := acctest.Dynamic(t).Resource(k.GVR).Create(context.Background(), obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			switch {
			case tc.api == "" && err != nil:
				t.Errorf("Kueue refused a case the provider accepts: %v", err)
			case tc.api != "" && err == nil:
				t.Errorf("Kueue (%s) accepted a case the provider refuses", tc.source)
			case tc.api != "" && !strings.Contains(err.Error(), tc.api):
				t.Errorf("Kueue (%s) refused it, but not for the expected reason %q: %v", tc.source, tc.api, err)
			}
		})
	}
}

// specHCL renders a ClusterQueue or Cohort spec as the attributes and blocks of its resource.
func specHCL(spec map[string]any) string {
	var b strings.Builder
	for _, k := range sortedKeys(spec) {
		v := spec[k]
		switch k {
		case "cohortName":
			fmt.Fprintf(&b, "  cohort = %s\n", hclValue(v))
		case "parentName":
			fmt.Fprintf(&b, "  parent = %s\n", hclValue(v))
		case "fairSharing":
			fmt.Fprintf(&b, "  fair_sharing_weight = %s\n", hclValue(v.(map[string]any)["weight"]))
		case "admissionChecksStrategy":
			fmt.Fprintf(&b, "  admission_checks_strategy = %s\n", hclValue(snakeKeys(v.(map[string]any)["admissionChecks"])))
		case "resourceGroups":
			for _, g := range v.([]any) {
				b.WriteString(groupHCL(g.(map[string]any)))
			}
		default:
			fmt.Fprintf(&b, "  %s = %s\n", snake(k), hclValue(snakeKeys(v)))
		}
	}
	return b.String()
}

func groupHCL(g map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  resource_group {\n    covered_resources = %s\n", hclValue(g["coveredResources"]))
	for _, f := range g["flavors"].([]any) {
		f := f.(map[string]any)
		fmt.Fprintf(&b, "    flavor {\n      name = %s\n", hclValue(f["name"]))
		for _, r := range f["resources"].([]any) {
			b.WriteString("      resource {\n")
			for _, k := range sortedKeys(r.(map[string]any)) {
				fmt.Fprintf(&b, "        %s = %s\n", snake(k), hclValue(r.(map[string]any)[k]))
			}
			b.WriteString("      }\n")
		}
		b.WriteString("    }\n")
	}
	return b.String() + "  }\n"
}

// snakeKeys turns the keys of nested objects from the API's camelCase into attribute names;
// label maps keep their keys.
func snakeKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if k == "matchLabels" {
				out[snake(k)] = e
				continue
			}
			out[snake(k)] = snakeKeys(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = snakeKeys(e)
		}
		return out
	}
	return v
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
