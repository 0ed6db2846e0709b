package simulate

import (
	"fmt"
	"math"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

const wholeGPU = corev1.ResourceName("nvidia.com/gpu")

// WholeGPUs turns in and the profiles into the same day without MIG: every queue's MIG quota on
// a flavor becomes whole GPUs (its slices over the flavor's UnitsPerGPU, rounded down), a flavor's
// GPU costs what its slices of one GPU cost, and a job that asks for slices asks for as many whole
// GPUs. It answers "what do the slices buy us": the same queues, the same jobs, whole GPUs only.
func WholeGPUs(in *Input, profiles []Profile) error {
	in.ClusterQueues = deepCopies(in.ClusterQueues)
	for i := range in.ClusterQueues {
		for g := range in.ClusterQueues[i].Spec.ResourceGroups {
			rg := &in.ClusterQueues[i].Spec.ResourceGroups[g]
			covered := slices.DeleteFunc(slices.Clone(rg.CoveredResources), isMIG)
			if len(covered) < len(rg.CoveredResources) && !slices.Contains(covered, wholeGPU) {
				covered = append(covered, wholeGPU)
			}
			rg.CoveredResources = covered
			for f := range rg.Flavors {
				fq := &rg.Flavors[f]
				gpus, err := in.gpusOf(fq)
				if err != nil {
					return fmt.Errorf("ClusterQueue %s: %w", in.ClusterQueues[i].Name, err)
				}
				var out []kueue.ResourceQuota
				for _, r := range covered {
					if r == wholeGPU {
						out = append(out, gpus)
						continue
					}
					for _, q := range fq.Resources {
						if q.Name == r {
							out = append(out, q)
						}
					}
				}
				fq.Resources = out
			}
		}
	}
	prices := map[string]FlavorModel{}
	for name, m := range in.Flavor {
		p := map[corev1.ResourceName]float64{}
		for r, v := range m.Price {
			if !isMIG(r) {
				p[r] = v
			} else if _, ok := m.Price[wholeGPU]; !ok {
				p[wholeGPU] = v * m.UnitsPerGPU[r]
			}
		}
		prices[name] = FlavorModel{Price: p, Spot: m.Spot}
	}
	in.Flavor = prices
	for i := range profiles {
		shapes := slices.Clone(profiles[i].Shapes)
		for s := range shapes {
			req := corev1.ResourceList{}
			for r, q := range shapes[s].Requests {
				if isMIG(r) {
					r = wholeGPU
				}
				req[r] = q
			}
			shapes[s].Requests = req
		}
		profiles[i].Shapes = shapes
	}
	return nil
}

func isMIG(r corev1.ResourceName) bool { return isGPU(r) && r != wholeGPU }

// gpusOf is a flavor's whole-GPU quota: its nvidia.com/gpu plus its MIG slices in GPUs, for the
// nominal quota and each limit that is set.
func (in *Input) gpusOf(fq *kueue.FlavorQuotas) (kueue.ResourceQuota, error) {
	var nominal, borrow, lend float64
	hasBorrow, hasLend := false, false
	for _, q := range fq.Resources {
		if !isGPU(q.Name) || isMIG(q.Name) && q.NominalQuota.IsZero() && q.BorrowingLimit == nil && q.LendingLimit == nil {
			continue // a slice the flavor's nodes do not have
		}
		per := 1.0
		if isMIG(q.Name) {
			per = in.Flavor[string(fq.Name)].UnitsPerGPU[q.Name]
			if per <= 0 {
				return kueue.ResourceQuota{}, fmt.Errorf("flavor %s: %s in whole GPUs needs its units per GPU", fq.Name, q.Name)
			}
		}
		nominal += math.Floor(q.NominalQuota.AsApproximateFloat64() / per)
		if q.BorrowingLimit != nil {
			hasBorrow = true
			borrow += math.Floor(q.BorrowingLimit.AsApproximateFloat64() / per)
		}
		if q.LendingLimit != nil {
			hasLend = true
			lend += math.Floor(q.LendingLimit.AsApproximateFloat64() / per)
		}
	}
	out := kueue.ResourceQuota{Name: wholeGPU, NominalQuota: *resource.NewQuantity(int64(nominal), resource.DecimalSI)}
	if hasBorrow {
		out.BorrowingLimit = resource.NewQuantity(int64(borrow), resource.DecimalSI)
	}
	if hasLend {
		out.LendingLimit = resource.NewQuantity(int64(lend), resource.DecimalSI)
	}
	return out, nil
}
