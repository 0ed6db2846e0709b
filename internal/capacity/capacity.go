package capacity

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Flavor is a ResourceFlavor: the node labels it selects nodes by.
type Flavor struct {
	Name       string
	NodeLabels map[string]string
}

// Pool is one GPU NodePool: the labels its nodes carry, what GPUs they have and how they are
// split, and its bounds.
type Pool struct {
	Name         string
	CapacityType string // one of CapacityTypes; informational
	// NodeLabels are the labels the pool's nodes carry; the labels gpu.Expose says such a node
	// carries are added to them.
	NodeLabels map[string]string
	// Node is the model (or instance type), MIG config or layout and strategy, and
	// time-slicing. GPUsPerNode may be 0 when only MaxGPUs bounds the pool.
	Node gpu.NodeSpec
	// MaxGPUs and MaxNodes bound the pool; 0 means unbounded.
	MaxGPUs  int64
	MaxNodes int64
	// Static is a static NodePool (replicas): exactly MaxNodes nodes, even 0. Node must then name
	// an instance type or GPUs per node.
	Static bool
	// LabelsUnknown is true while some of the labels the pool's nodes carry are known only at
	// apply: NodeLabels may lack them.
	LabelsUnknown bool
}

// Quota is one nominal quota of a ClusterQueue for a (flavor, resource). Ref is the caller's
// handle to map a finding back (e.g. an index of attribute paths); quotas of other queues that
// only count towards the sums may share any Ref.
type Quota struct {
	Queue    string
	Flavor   string
	Resource string
	Nominal  resource.Quantity
	Ref      int
}

// Finding is an error or a warning about one quota.
type Finding struct {
	Ref      int
	Queue    string // of the quota; set by Unselected only
	Flavor   string
	Resource string
	Summary  string
	Detail   string
}

// neverRefused are resources every node has, which a GPU pool cannot be wrong about.
var neverRefused = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true, "pods": true}

// checked reports whether the pools are authoritative on resource r: the NVIDIA device plugin's
// resources. Others (hugepages, RDMA, ...) may come from elsewhere and are not checked.
func checked(r string) bool {
	return !neverRefused[r] && strings.HasPrefix(r, "nvidia.com/")
}

// Check returns the errors and warnings for the quotas of queue: a quota the flavor's pools can
// never supply alone is an error, quotas of several queues that add up to more a warning
// (over-commit can be deliberate). quotas may also hold other queues' quotas: they count towards
// the sums, and are neither refused nor warned.
// It fails only when a pool cannot be exposed (a pool the provider refused at plan).
func Check(queue string, flavors []Flavor, pools []Pool, quotas []Quota) (errs, warns []Finding, _ error) {
	exposed := make([]map[string]int64, len(pools)) // resource -> most the pool supplies (-1: unbounded)
	labels := make([]map[string]string, len(pools))
	for i, p := range pools {
		s, err := p.Supply()
		if err != nil {
			return nil, nil, fmt.Errorf("NodePool %s: %w", p.Name, err)
		}
		exposed[i], labels[i] = s.Most, s.NodeLabels
	}
	selected := map[string][]int{}
	for _, f := range flavors {
		selected[f.Name] = Select(f, labels)
	}
	type key struct{ flavor, resource string }
	sums := map[key]resource.Quantity{}
	for _, q := range quotas {
		k := key{q.Flavor, q.Resource}
		s := sums[k]
		s.Add(q.Nominal)
		sums[k] = s
	}
	warned := map[key]bool{}
	strayed := map[string]bool{}
	for _, q := range quotas {
		idx := selected[q.Flavor]
		if q.Queue != queue || !checked(q.Resource) || q.Nominal.Sign() <= 0 {
			continue
		}
		if len(idx) == 0 {
			if f, ok := flavorNamed(flavors, q.Flavor); ok && f.NodeLabels[LabelGPU] != "" && len(pools) > 0 && !strayed[f.Name] {
				strayed[f.Name] = true
				errs = append(errs, Finding{Ref: q.Ref, Flavor: q.Flavor, Resource: q.Resource,
					Summary: "Flavor selects no GPU node pool's nodes",
					Detail: fmt.Sprintf("ResourceFlavor %s selects the nodes labelled %s, which no GPU node pool's nodes carry "+
						"(theirs: %s). Kueue would admit runs on it that stay Pending, as no node can take them. Give the flavor "+
						"the node labels of a pool's `supplies`.", f.Name, labelList(f.NodeLabels), poolLabels(pools, labels, f.NodeLabels))})
			}
			continue
		}
		var total int64
		exposing, unbounded := []string{}, false
		for _, i := range idx {
			if n, ok := exposed[i][q.Resource]; ok {
				exposing = append(exposing, pools[i].Name)
				unbounded = unbounded || n < 0
				total += max(n, 0)
			}
		}
		if len(exposing) == 0 {
			errs = append(errs, Finding{Ref: q.Ref, Flavor: q.Flavor, Resource: q.Resource,
				Summary: "Quota for a resource the flavor's nodes never expose",
				Detail: fmt.Sprintf("ResourceFlavor %s selects the nodes of %s, which expose %s; never %s, so a nominal quota of %s "+
					"for it can never be used. Give it 0, or quota the resources the nodes expose (see the node pool's `supplies`).",
					q.Flavor, names(pools, idx), offered(exposed, idx), q.Resource, q.Nominal.String())})
			continue
		}
		most := *resource.NewQuantity(total, resource.DecimalSI)
		if !unbounded && q.Nominal.Cmp(most) > 0 {
			errs = append(errs, Finding{Ref: q.Ref, Flavor: q.Flavor, Resource: q.Resource,
				Summary: "Quota exceeds what the flavor's node pools can supply",
				Detail: fmt.Sprintf("The nominal quota %s for %s on ResourceFlavor %s is more than the NodePools it selects (%s) "+
					"can supply at their limits: %d. This queue alone could never use it; Kueue would admit runs beyond it that "+
					"stay Pending. Lower the quota or raise the pools' limits (max_gpus).",
					q.Nominal.String(), q.Resource, q.Flavor, strings.Join(exposing, ", "), total)})
			continue
		}
		k := key{q.Flavor, q.Resource}
		sum := sums[k]
		if unbounded || warned[k] || sum.Cmp(most) <= 0 {
			continue
		}
		warned[k] = true
		warns = append(warns, Finding{Ref: q.Ref, Flavor: q.Flavor, Resource: q.Resource,
			Summary: "Quota exceeds what the flavor's node pools can supply",
			Detail: fmt.Sprintf("The nominal quotas for %s on ResourceFlavor %s add up to %s, but the NodePools it selects (%s) "+
				"can supply at most %d at their limits. Over-commit can be deliberate; otherwise lower the quota or raise the pools' limits.",
				q.Resource, q.Flavor, sum.String(), strings.Join(exposing, ", "), total)})
	}
	return errs, warns, nil
}

// Select returns the indexes of the pools whose node labels include every node label of the
// flavor. A flavor without node labels stands for any node, not for mlplatform pools: none.
func Select(f Flavor, poolLabels []map[string]string) []int {
	if len(f.NodeLabels) == 0 {
		return nil
	}
	var out []int
	for i, l := range poolLabels {
		match := true
		for k, v := range f.NodeLabels {
			if got, ok := l[k]; !ok || got != v {
				match = false
				break
			}
		}
		if match {
			out = append(out, i)
		}
	}
	return out
}

// flavorNamed is the flavor of that name.
func flavorNamed(flavors []Flavor, name string) (Flavor, bool) {
	for _, f := range flavors {
		if f.Name == name {
			return f, true
		}
	}
	return Flavor{}, false
}

// labelList is "k1=v1, k2=v2", sorted.
func labelList(l map[string]string) string {
	out := make([]string, 0, len(l))
	for _, k := range slices.Sorted(maps.Keys(l)) {
		out = append(out, k+"="+l[k])
	}
	return strings.Join(out, ", ")
}

// poolLabels is each pool's values of the flavor's label keys, for a flavor that selects none.
func poolLabels(pools []Pool, labels []map[string]string, flavor map[string]string) string {
	out := make([]string, len(pools))
	for i, p := range pools {
		own := map[string]string{}
		for k := range flavor {
			if v, ok := labels[i][k]; ok {
				own[k] = v
			}
		}
		out[i] = fmt.Sprintf("%s: %s", p.Name, labelList(own))
	}
	return strings.Join(out, "; ")
}

func names(pools []Pool, idx []int) string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = pools[j].Name
	}
	return strings.Join(out, ", ")
}

func offered(exposed []map[string]int64, idx []int) string {
	set := map[string]bool{}
	for _, i := range idx {
		for r := range exposed[i] {
			set[r] = true
		}
	}
	if len(set) == 0 {
		return "no GPU resources"
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), ", ")
}
