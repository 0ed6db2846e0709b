package webhookparity_test

import (
	"fmt"
	"maps"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate/parity"
)

// webhookCase is an object for one rule of Kueue's webhooks that the CRD's schema does not hold:
// one that breaks it, or a control just within it.
type webhookCase struct {
	parity.Case
	Rule    string // the function of sigs.k8s.io/kueue/pkg/webhooks (v0.19.2) that holds the rule
	Refused bool   // whether the rule refuses the object
	Detail  string // a piece of the refusal's words, when refused
	// ShadowedBy is the CRD's CEL message that refuses the object first, when a CEL rule repeats
	// the webhook's: the apiserver never calls the webhook on it, so neither does the engine.
	ShadowedBy string
}

// webhookRules are the rules Kueue v0.19.2's validating webhooks check on create, by kind: the
// functions ValidateClusterQueue, validateCohort and ValidateResourceFlavor call
// (pkg/webhooks/{clusterqueue,cohort,resourceflavor}_webhook.go, common.go). Each must be broken by
// a case. LocalQueue, WorkloadPriorityClass and Topology have no validating webhook.
// validateConcurrentAdmissionPolicy runs only with the alpha ConcurrentAdmission gate, which the
// engine and the test cluster's Kueue turn on.
var webhookRules = map[string][]string{
	"ClusterQueue": {
		"validateResourceGroups", "validateResourceName", "validateFlavorQuotas", "validateResourceQuantity",
		"validateLimit", "validateLendingLimit", "ValidateLabelSelector", "validatePreemption",
		"validateFlavorFungibility", "validateFairSharing", "validateTotalFlavors",
		"validateTotalCoveredResources", "validateFlavorResourceCombinations", "validateAdmissionCheckOnFlavors",
		"validateConcurrentAdmissionPolicy",
	},
	"Cohort": {
		"validateFairSharing", "validateResourceGroups", "validateResourceName", "validateFlavorQuotas",
		"validateResourceQuantity", "validateLimit",
	},
	"ResourceFlavor": {"ValidateLabels", "validateNodeTaints", "validateTolerations"},
}

// Limits of ClusterQueue's webhook that are literals in its code (validateTotalFlavors,
// validateTotalCoveredResources, validateFlavorResourceCombinations), not CRD bounds.
const (
	maxTotalFlavors            = 256
	maxTotalCoveredResources   = 256
	maxFlavorResourcesPerGroup = 512
)

// schemaLimits are the CRD's maxItems on a resource group's lists, within which the generated
// objects for the totals must stay so that only the webhook's total is broken.
type schemaLimits struct{ groups, flavors, covered int }

// webhookCases are the cases of kind, each base with spec fields set.
func webhookCases(kind string, base map[string]any, lim schemaLimits) []webhookCase {
	var out []webhookCase
	add := func(rule, change string, refused bool, detail string, fields map[string]any) *webhookCase {
		obj := runtime.DeepCopyJSON(base)
		spec, _ := obj["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			obj["spec"] = spec
		}
		maps.Copy(spec, runtime.DeepCopyJSON(fields))
		out = append(out, webhookCase{Case: parity.Case{Path: []string{"spec"}, Change: change, Obj: obj},
			Rule: rule, Refused: refused, Detail: detail})
		return &out[len(out)-1]
	}
	const gpu, cpu = "nvidia.com/gpu", "cpu"
	rg := func(g ...any) map[string]any { return map[string]any{"resourceGroups": g} }
	switch kind {
	case "ClusterQueue", "Cohort":
		parent, parentField := "cohortName", "cohort"
		if kind == "Cohort" {
			parent, parentField = "parentName", "parent"
		}
		withParent := func(f map[string]any) map[string]any { f[parent] = "team"; return f }
		add("validateFairSharing", "weight -1", true, "must be greater than or equal to 0",
			map[string]any{"fairSharing": map[string]any{"weight": "-1"}})
		add("validateFairSharing", "weight 1n", true, "When not 0, weight must be > 10e-9",
			map[string]any{"fairSharing": map[string]any{"weight": "1n"}})
		add("validateFairSharing", "weight 2n (control)", false, "", map[string]any{"fairSharing": map[string]any{"weight": "2n"}})
		add("validateFairSharing", "weight 0 (control)", false, "", map[string]any{"fairSharing": map[string]any{"weight": int64(0)}})
		add("validateResourceName", "a covered resource that is no label key", true, "spec.resourceGroups[0].coveredResources[0]",
			rg(group([]string{"Not Valid!"}, flavor("a100", quota("Not Valid!", 8)))))
		// The CRD refuses a quota twice for one resource: the second is for another.
		add("validateResourceGroups", "a resource covered twice in one group", true, "coveredResources[1]: Duplicate value",
			rg(group([]string{gpu, gpu}, flavor("a100", quota(gpu, 8), quota(cpu, 8)))))
		add("validateResourceGroups", "a resource covered by two groups", true, "Duplicate value",
			rg(group([]string{gpu}, flavor("a100", quota(gpu, 8))), group([]string{gpu}, flavor("h100", quota(gpu, 8)))))
		add("validateResourceGroups", "a flavor in two groups", true, "spec.resourceGroups[1].flavors[0].name: Duplicate value",
			rg(group([]string{gpu}, flavor("a100", quota(gpu, 8))), group([]string{cpu}, flavor("a100", quota(cpu, 8)))))
		add("validateFlavorQuotas", "quotas in another order than coveredResources", true, "must match the name in coveredResources",
			rg(group([]string{gpu, cpu}, flavor("a100", quota(cpu, 8), quota(gpu, 8)))))
		add("validateResourceQuantity", "nominalQuota -1", true, "must be greater than or equal to 0",
			rg(group([]string{gpu}, flavor("a100", quota(gpu, "-1")))))
		add("validateResourceQuantity", "borrowingLimit -1, with a "+parentField, true, "borrowingLimit: Invalid value: \"-1\"",
			withParent(rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "borrowingLimit", "-1"))))))
		add("validateResourceQuantity", "lendingLimit -1, with a "+parentField, true, "lendingLimit: Invalid value: \"-1\"",
			withParent(rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "lendingLimit", "-1"))))))
		add("validateLimit", "lendingLimit without a "+parentField, true, "must be nil when "+parentField+" is empty",
			rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "lendingLimit", 4)))))
		c := add("validateLimit", "borrowingLimit without a "+parentField, true, "must be nil when "+parentField+" is empty",
			rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "borrowingLimit", 4)))))
		if kind == "ClusterQueue" {
			c.ShadowedBy = "borrowingLimit must be nil when cohort is empty"
		}
		add("validateLimit", "both limits, with a "+parentField+" (control)", false, "",
			withParent(rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "borrowingLimit", 4, "lendingLimit", 8))))))
		above := withParent(rg(group([]string{gpu}, flavor("a100", quota(gpu, 8, "lendingLimit", 9)))))
		if kind == "Cohort" {
			// A Cohort may lend more than its nominal quota (enforceNominalGreaterThanLending false).
			add("validateLendingLimit", "lendingLimit above nominalQuota, with a parent (control)", false, "", above)
			break
		}
		add("validateLendingLimit", "lendingLimit above nominalQuota, with a cohort", true, "must be less than or equal to the nominalQuota", above)
		add("ValidateLabelSelector", "namespaceSelector: In without values", true, "spec.namespaceSelector.matchExpressions[0].values",
			map[string]any{"namespaceSelector": map[string]any{"matchExpressions": []any{map[string]any{"key": "team", "operator": "In"}}}})
		add("ValidateLabelSelector", "namespaceSelector: an unknown operator", true, "spec.namespaceSelector.matchExpressions[0].operator",
			map[string]any{"namespaceSelector": map[string]any{"matchExpressions": []any{map[string]any{"key": "team", "operator": "Near", "values": []any{"a"}}}}})
		add("ValidateLabelSelector", "namespaceSelector: a label key that is none", true, "spec.namespaceSelector.matchLabels",
			map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"Not Valid!": "a"}}})
		add("validatePreemption", "reclaimWithinCohort Never, borrowWithinCohort LowerPriority", true, "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never",
			map[string]any{"preemption": map[string]any{"reclaimWithinCohort": "Never", "borrowWithinCohort": map[string]any{"policy": "LowerPriority"}}}).
			ShadowedBy = "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"
		add("validateFlavorFungibility", "preference with whenCanBorrow MayStopSearch", true, "preference can only be set when both whenCanBorrow and",
			map[string]any{"flavorFungibility": map[string]any{"preference": "BorrowingOverPreemption", "whenCanBorrow": "MayStopSearch"}}).
			ShadowedBy = "preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor"
		add("validateFlavorFungibility", "preference with both TryNextFlavor (control)", false, "",
			map[string]any{"flavorFungibility": map[string]any{"preference": "BorrowingOverPreemption", "whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "TryNextFlavor"}})
		checkOn := func(onFlavor string) map[string]any {
			f := rg(group([]string{gpu}, flavor("a100", quota(gpu, 8))))
			f["admissionChecksStrategy"] = map[string]any{"admissionChecks": []any{map[string]any{"name": "prov", "onFlavors": []any{onFlavor}}}}
			return f
		}
		add("validateAdmissionCheckOnFlavors", "an admission check on a flavor the queue lacks", true,
			`spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]: Unsupported value: "h100"`, checkOn("h100"))
		add("validateAdmissionCheckOnFlavors", "an admission check on the queue's flavor (control)", false, "", checkOn("a100"))
		concurrent := func(strategy string) map[string]any {
			f := rg(group([]string{gpu}, flavor("a100", quota(gpu, 8))))
			f["queueingStrategy"] = strategy
			f["concurrentAdmissionPolicy"] = map[string]any{"migration": map[string]any{"mode": "TryPreferredFlavors"}}
			return f
		}
		add("validateConcurrentAdmissionPolicy", "concurrent admission with StrictFIFO", true,
			"StrictFIFO queueing strategy cannot be used when ConcurrentAdmissionPolicy is defined", concurrent("StrictFIFO"))
		add("validateConcurrentAdmissionPolicy", "concurrent admission with BestEffortFIFO (control)", false, "", concurrent("BestEffortFIFO"))
		for _, n := range []int{maxTotalFlavors, maxTotalFlavors + 1} {
			add("validateTotalFlavors", fmt.Sprintf("%d flavors over the groups", n), n > maxTotalFlavors, "total number of flavors across all resourceGroups must be ≤ 256",
				rg(spread(n, lim.flavors, lim.groups, func(i, flavors int) (int, int) { return 1, flavors })...))
		}
		for _, n := range []int{maxTotalCoveredResources, maxTotalCoveredResources + 1} {
			add("validateTotalCoveredResources", fmt.Sprintf("%d covered resources over the groups", n), n > maxTotalCoveredResources, "total number of covered resources across all resourceGroups must be ≤ 256",
				rg(spread(n, lim.covered, lim.groups, func(i, covered int) (int, int) { return covered, 1 })...))
		}
		for _, n := range []int{maxFlavorResourcesPerGroup, maxFlavorResourcesPerGroup + 1} {
			covered, flavors := factor(n, lim.covered, lim.flavors)
			add("validateFlavorResourceCombinations", fmt.Sprintf("%d flavors × %d resources in one group", flavors, covered), n > maxFlavorResourcesPerGroup,
				"number of flavor-resource combinations in a resourceGroup must be ≤ 512", rg(groupOf(0, covered, flavors)))
		}
	case "ResourceFlavor":
		taint := func(key, value string) map[string]any {
			return map[string]any{"key": key, "value": value, "effect": "NoSchedule"}
		}
		add("ValidateLabels", "a nodeLabels key that is no label key", true, "spec.nodeLabels: Invalid value: \"Not Valid!\"",
			map[string]any{"nodeLabels": map[string]any{"Not Valid!": "a"}})
		add("ValidateLabels", "a nodeLabels value that is no label value", true, "spec.nodeLabels: Invalid value: \"Not Valid!\"",
			map[string]any{"nodeLabels": map[string]any{"a": "Not Valid!"}})
		add("validateNodeTaints", "a taint key that is no label key", true, "spec.nodeTaints[0].key",
			map[string]any{"nodeTaints": []any{taint("Not Valid!", "a")}})
		add("validateNodeTaints", "a taint value that is no label value", true, "spec.nodeTaints[0].value",
			map[string]any{"nodeTaints": []any{taint("a", "Not Valid!")}})
		add("validateNodeTaints", "two taints of one key and effect", true, "taints must be unique by key and effect pair",
			map[string]any{"nodeTaints": []any{taint("a", "x"), taint("a", "y")}})
		add("validateNodeTaints", "one key with two effects (control)", false, "",
			map[string]any{"nodeTaints": []any{taint("a", "x"), map[string]any{"key": "a", "value": "x", "effect": "NoExecute"}}})
		add("validateTolerations", "a toleration key that is no label key", true, "spec.tolerations[0].key",
			map[string]any{"tolerations": []any{map[string]any{"key": "Not Valid!", "operator": "Exists"}}})
	}
	return out
}

// quota is a resource's quotas: nominal, then limits as name, value pairs. Quantities are ints or
// strings; ints become int64, as JSON decodes them.
func quota(resource string, nominal any, limits ...any) map[string]any {
	q := map[string]any{"name": resource, "nominalQuota": jsonValue(nominal)}
	for i := 0; i+1 < len(limits); i += 2 {
		q[limits[i].(string)] = jsonValue(limits[i+1])
	}
	return q
}

func jsonValue(v any) any {
	if n, ok := v.(int); ok {
		return int64(n)
	}
	return v
}

func flavor(name string, quotas ...any) map[string]any {
	return map[string]any{"name": name, "resources": quotas}
}

func group(covered []string, flavors ...any) map[string]any {
	c := make([]any, len(covered))
	for i, r := range covered {
		c[i] = r
	}
	return map[string]any{"coveredResources": c, "flavors": flavors}
}

// groupOf is resource group g with covered resources and flavors of names no other group uses,
// each flavor with a quota of every covered resource.
func groupOf(g, covered, flavors int) map[string]any {
	names := make([]string, covered)
	for i := range names {
		names[i] = fmt.Sprintf("example.com/g%d-r%d", g, i)
	}
	fs := make([]any, flavors)
	for i := range fs {
		qs := make([]any, covered)
		for j, r := range names {
			qs[j] = quota(r, 1)
		}
		fs[i] = flavor(fmt.Sprintf("g%d-f%d", g, i), qs...)
	}
	return group(names, fs...)
}

// spread is resource groups whose lists of one kind (flavors or covered resources, each at most
// perGroup) hold n items in all, in as few groups as fit; shape gives a group's covered resources
// and flavors from its share. It panics when n does not fit in maxGroups.
func spread(n, perGroup, maxGroups int, shape func(g, share int) (covered, flavors int)) []any {
	groups := (n + perGroup - 1) / perGroup
	if groups > maxGroups {
		panic(fmt.Sprintf("%d items do not fit in %d groups of %d", n, maxGroups, perGroup))
	}
	var out []any
	for g := range groups {
		share := n / groups
		if g < n%groups {
			share++
		}
		covered, flavors := shape(g, share)
		out = append(out, groupOf(g, covered, flavors))
	}
	return out
}

// factor is n as covered resources × flavors within the CRD's bounds, the covered resources as many
// as fit. It panics when no such pair exists.
func factor(n, maxCovered, maxFlavors int) (covered, flavors int) {
	for c := min(n, maxCovered); c > 0; c-- {
		if n%c == 0 && n/c <= maxFlavors {
			return c, n / c
		}
	}
	panic(fmt.Sprintf("%d is no product of at most %d covered resources and %d flavors", n, maxCovered, maxFlavors))
}
