package simulation

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
)

// admissible refuses, per team and shape, a job no flavor of its queue could ever admit: Kueue
// would only leave it pending, and the simulation would report a wait that says nothing of why.
// A flavor can admit a shape when its node labels do not contradict the shape's node selector, its
// queue covers every resource the shape asks for, and the queue's quota there plus what it may
// borrow holds the job.
func (x *expander) admissible(in *simulate.Input, profiles []simulate.Profile) {
	queues := map[string]string{}
	for _, lq := range in.LocalQueues {
		queues[lq.Namespace+"/"+lq.Name] = string(lq.Spec.ClusterQueue)
	}
	cqs := map[string]*kueue.ClusterQueue{}
	for i := range in.ClusterQueues {
		cqs[in.ClusterQueues[i].Name] = &in.ClusterQueues[i]
	}
	labels := map[string]map[string]string{}
	for _, f := range in.Flavors {
		labels[f.Name] = f.Spec.NodeLabels
	}
	for i, p := range profiles {
		pp := path.Root("profiles").AtListIndex(i)
		cq := cqs[queues[p.Namespace+"/"+p.Queue]]
		if cq == nil {
			x.fail(pp.AtName("local_queue"), "Unknown local queue",
				fmt.Sprintf("Team %s submits to %s/%s, which local_queues does not declare (or whose cluster_queue cluster_queues lacks).", p.Team, p.Namespace, p.Queue))
			continue
		}
		for j, s := range p.Shapes {
			var why []string
			ok := false
			for _, rg := range cq.Spec.ResourceGroups {
				for _, fq := range rg.Flavors {
					reason := fits(in, cq, rg, fq, labels[string(fq.Name)], s)
					if reason == "" {
						ok = true
						break
					}
					why = append(why, string(fq.Name)+": "+reason)
				}
			}
			if !ok {
				x.fail(pp.AtName("shapes").AtListIndex(j), "No flavor can admit this job",
					fmt.Sprintf("Team %s's jobs of this shape (%s per pod, %d pods) go to ClusterQueue %s, where Kueue could never admit them: %s.",
						p.Team, describe(s.Requests), s.Pods, cq.Name, strings.Join(why, "; ")))
			}
		}
	}
}

// fits is why flavor fq of cq cannot take shape s, or "".
func fits(in *simulate.Input, cq *kueue.ClusterQueue, rg kueue.ResourceGroup, fq kueue.FlavorQuotas, nodeLabels map[string]string, s simulate.Shape) string {
	for k, v := range s.NodeSelector {
		if have, ok := nodeLabels[k]; ok && have != v {
			return fmt.Sprintf("its nodes are %s=%s, the job selects %s", k, have, v)
		}
	}
	for r, q := range s.Requests {
		covered := false
		for _, c := range rg.CoveredResources {
			covered = covered || c == r
		}
		if !covered {
			return fmt.Sprintf("the queue has no quota of %s", r)
		}
		need := q.AsApproximateFloat64() * float64(s.Pods)
		if most := reachable(in, cq, fq.Name, r); need > most {
			return fmt.Sprintf("the job needs %g %s, the queue can hold at most %g there (its quota and what it may borrow)", need, r, most)
		}
	}
	return ""
}

// reachable is cq's nominal quota of resource r on flavor f plus what it may borrow of it from its
// cohort: the others' lendable quota, capped by its borrowing limit.
func reachable(in *simulate.Input, cq *kueue.ClusterQueue, f kueue.ResourceFlavorReference, r corev1.ResourceName) float64 {
	quota := func(q *kueue.ClusterQueue) *kueue.ResourceQuota {
		for _, rg := range q.Spec.ResourceGroups {
			for _, fq := range rg.Flavors {
				if fq.Name != f {
					continue
				}
				for i := range fq.Resources {
					if fq.Resources[i].Name == r {
						return &fq.Resources[i]
					}
				}
			}
		}
		return nil
	}
	own := quota(cq)
	if own == nil {
		return 0
	}
	total := own.NominalQuota.AsApproximateFloat64()
	if cq.Spec.CohortName == "" {
		return total
	}
	lendable := 0.0
	for i := range in.ClusterQueues {
		o := &in.ClusterQueues[i]
		if o.Name == cq.Name || o.Spec.CohortName != cq.Spec.CohortName {
			continue
		}
		if q := quota(o); q != nil {
			l := q.NominalQuota.AsApproximateFloat64()
			if q.LendingLimit != nil {
				l = math.Min(l, q.LendingLimit.AsApproximateFloat64())
			}
			lendable += l
		}
	}
	if own.BorrowingLimit != nil {
		lendable = math.Min(lendable, own.BorrowingLimit.AsApproximateFloat64())
	}
	return total + lendable
}

func describe(rl corev1.ResourceList) string {
	parts := make([]string, 0, len(rl))
	for r, q := range rl {
		parts = append(parts, fmt.Sprintf("%s %s", q.String(), r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
