package queue

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Pod is what Kueue's flavor assigner looks at in one pod.
type Pod struct {
	NodeSelector map[string]string
	Tolerations  []corev1.Toleration
	Requests     corev1.ResourceList
}

// Cause is why a request can never be admitted.
type Cause int

const (
	// NotCovered: no resource group of the ClusterQueue covers the resource.
	NotCovered Cause = iota
	// NoFlavorMatches: every flavor of the group has a taint the pod does not tolerate, selects
	// nodes the pod's node selector excludes, or does not exist.
	NoFlavorMatches
	// ExceedsQuota: a flavor matches, but one pod asks for more than its nominal quota plus
	// borrowing limit.
	ExceedsQuota
)

// Refusal is one request that no flavor of the ClusterQueue can ever admit.
type Refusal struct {
	Resource corev1.ResourceName
	Cause    Cause
	Detail   string
}

// Check returns why Kueue could never admit pod through cq, or nothing. flavors holds the
// ResourceFlavors that exist, by name. It follows Kueue v0.19.2's flavor assigner
// (pkg/scheduler/flavorassigner): the resources a group covers take one flavor together, tried in
// order; a flavor matches when the pod tolerates its NoSchedule and NoExecute taints and the pod's
// node selector, restricted to the label keys of that flavor (before v0.19: of all the group's
// flavors), matches its node labels. Resources the queue does not cover are refused as Kueue's
// default quotaCheckStrategy, BlockUndeclared, does; a Kueue configured with IgnoreUndeclared
// admits them unchecked.
// The most one pod can get of a flavor's resource is its nominal quota, plus the borrowing limit
// in a cohort; borrowing without a limit is bounded by the cohort alone, which is not checked.
func Check(pod Pod, cq *kueue.ClusterQueue, flavors map[string]*kueue.ResourceFlavor) []Refusal {
	var out []Refusal
	byGroup := map[int][]corev1.ResourceName{}
	for _, r := range requested(pod.Requests) {
		g := groupOf(cq, r)
		if g < 0 {
			out = append(out, Refusal{Resource: r, Cause: NotCovered, Detail: fmt.Sprintf(
				"ClusterQueue %s has no quota for %s (it covers: %s)", cq.Name, r, covered(cq))})
			continue
		}
		byGroup[g] = append(byGroup[g], r)
	}
	groups := make([]int, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Ints(groups)
	for _, g := range groups {
		if r := checkGroup(pod, cq, &cq.Spec.ResourceGroups[g], byGroup[g], flavors); r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// Candidates are, for each resource group of cq that covers a resource the pod requests, in
// order, the flavors that could admit it (in the group's order): the pod tolerates their taints,
// its node selector matches their nodes, and one pod's request fits their quota, as Check judges
// them. A group Check refuses has none.
func Candidates(pod Pod, cq *kueue.ClusterQueue, flavors map[string]*kueue.ResourceFlavor) [][]*kueue.ResourceFlavor {
	byGroup := map[int][]corev1.ResourceName{}
	for _, r := range requested(pod.Requests) {
		if g := groupOf(cq, r); g >= 0 {
			byGroup[g] = append(byGroup[g], r)
		}
	}
	var out [][]*kueue.ResourceFlavor
	for g := range cq.Spec.ResourceGroups {
		resources, ok := byGroup[g]
		if !ok {
			continue
		}
		var admit []*kueue.ResourceFlavor
		for _, fq := range cq.Spec.ResourceGroups[g].Flavors {
			f, ok := flavors[string(fq.Name)]
			if ok && mismatch(pod, f) == "" && exceeded(pod, cq, fq, resources) == nil {
				admit = append(admit, f)
			}
		}
		out = append(out, admit)
	}
	return out
}

// checkGroup finds a flavor of rg that can admit the pod's requests of resources, or says why
// none can.
func checkGroup(pod Pod, cq *kueue.ClusterQueue, rg *kueue.ResourceGroup, resources []corev1.ResourceName, flavors map[string]*kueue.ResourceFlavor) *Refusal {
	var reasons []string
	var quota *Refusal
	for _, fq := range rg.Flavors {
		name := string(fq.Name)
		f, ok := flavors[name]
		if !ok {
			reasons = append(reasons, fmt.Sprintf("flavor %s does not exist", name))
			continue
		}
		if why := mismatch(pod, f); why != "" {
			reasons = append(reasons, why)
			continue
		}
		short := exceeded(pod, cq, fq, resources)
		if short == nil {
			return nil
		}
		reasons = append(reasons, short.Detail)
		if quota == nil {
			quota = short
		}
	}
	detail := fmt.Sprintf("ClusterQueue %s cannot admit one pod: %s", cq.Name, strings.Join(reasons, "; "))
	if quota != nil {
		return &Refusal{Resource: quota.Resource, Cause: ExceedsQuota, Detail: detail}
	}
	return &Refusal{Resource: resources[0], Cause: NoFlavorMatches, Detail: detail}
}

// mismatch is why flavor f cannot take the pod at all, or "".
func mismatch(pod Pod, f *kueue.ResourceFlavor) string {
	tolerations := append(append([]corev1.Toleration{}, pod.Tolerations...), f.Spec.Tolerations...)
	taint, untolerated := corev1helpers.FindMatchingUntoleratedTaint(klog.Background(), f.Spec.NodeTaints, tolerations,
		func(t *corev1.Taint) bool {
			return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
		}, true)
	if untolerated {
		return fmt.Sprintf("flavor %s has taint %s, which the pod does not tolerate", f.Name, taint.ToString())
	}
	if ok, err := flavorSelector(pod.NodeSelector, f.Spec.NodeLabels).Match(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: f.Spec.NodeLabels}}); err != nil || !ok {
		return fmt.Sprintf("flavor %s selects nodes labelled %s, which the pod's node selector %s excludes",
			f.Name, formatLabels(f.Spec.NodeLabels), formatLabels(pod.NodeSelector))
	}
	return ""
}

// exceeded is the first of resources whose request is more than flavor fq can ever give one pod.
func exceeded(pod Pod, cq *kueue.ClusterQueue, fq kueue.FlavorQuotas, resources []corev1.ResourceName) *Refusal {
	for _, r := range resources {
		want := pod.Requests[r]
		most, bound, limited := mostFor(cq, fq, r)
		if limited && want.Cmp(most) > 0 {
			return &Refusal{Resource: r, Cause: ExceedsQuota, Detail: fmt.Sprintf(
				"one pod requests %s %s, but flavor %s gives at most %s (%s)", want.String(), r, fq.Name, most.String(), bound)}
		}
	}
	return nil
}

// mostFor is the most of r that flavor fq of cq can give one workload, how that figure is made
// up, and whether it is bounded at all by the queue's own quotas.
func mostFor(cq *kueue.ClusterQueue, fq kueue.FlavorQuotas, r corev1.ResourceName) (resource.Quantity, string, bool) {
	for _, q := range fq.Resources {
		if q.Name != r {
			continue
		}
		most := q.NominalQuota.DeepCopy()
		switch {
		case cq.Spec.CohortName == "":
			return most, "nominal quota " + most.String() + ", no cohort to borrow from", true
		case q.BorrowingLimit == nil:
			return most, "", false
		default:
			most.Add(*q.BorrowingLimit)
			return most, fmt.Sprintf("nominal quota %s plus borrowing limit %s", q.NominalQuota.String(), q.BorrowingLimit.String()), true
		}
	}
	// Kueue's webhook requires every covered resource in every flavor; a missing one admits none.
	return resource.Quantity{}, "no quota for it", true
}

// flavorSelector is the pod's node selector restricted to the label keys of a flavor's nodes.
func flavorSelector(nodeSelector, flavorLabels map[string]string) nodeaffinity.RequiredNodeAffinity {
	kept := map[string]string{}
	for k, v := range nodeSelector {
		if _, ok := flavorLabels[k]; ok {
			kept[k] = v
		}
	}
	return nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: corev1.PodSpec{NodeSelector: kept}})
}

// requested are the resources the pod asks a non-zero amount of, in order.
func requested(l corev1.ResourceList) []corev1.ResourceName {
	var out []corev1.ResourceName
	for r, q := range l {
		if !q.IsZero() {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func groupOf(cq *kueue.ClusterQueue, r corev1.ResourceName) int {
	for i, rg := range cq.Spec.ResourceGroups {
		for _, c := range rg.CoveredResources {
			if c == r {
				return i
			}
		}
	}
	return -1
}

func covered(cq *kueue.ClusterQueue) string {
	var names []string
	for _, rg := range cq.Spec.ResourceGroups {
		for _, c := range rg.CoveredResources {
			names = append(names, string(c))
		}
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// formatLabels prints labels as k=v, sorted; {} when there are none.
func formatLabels(l map[string]string) string {
	if len(l) == 0 {
		return "{}"
	}
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ", ") + "}"
}
