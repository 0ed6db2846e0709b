package framework

import (
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// Plan-time queue paths between resources of one configuration: a LocalQueue (mlplatform_local_queue,
// or one of an mlplatform_team's local_queues) feeds a ClusterQueue, which names ResourceFlavors,
// and a training template sends its runs' pods to a LocalQueue of its namespace. Once the
// LocalQueue, its ClusterQueue and every flavor that ClusterQueue names are planned, the template
// is judged against them as the check before writing judges it against the cluster (package
// queue). Each resource records itself, and the one whose plan completes the path reports what the
// judge finds, so a finding is said once whatever order Terraform plans them in. A path with a part
// the configuration does not plan (a flavor of another configuration) is left to the check before
// writing, which reads the cluster.

type plannedQueues struct {
	mu      sync.Mutex
	local   map[string]string                // "namespace/name" -> the ClusterQueue it feeds
	cluster map[string]*kueue.ClusterQueue   // by name
	flavors map[string]*kueue.ResourceFlavor // by name
	uses    map[string]QueueUse              // by What
}

// QueueUse is a resource whose pods go to a LocalQueue, and how it judges what Kueue would do with
// them.
type QueueUse struct {
	What             string // e.g. `mlplatform_training_job_template "nlp/bert"`
	Namespace, Queue string
	// Judge says what is wrong with the pods, given the queue's ClusterQueue and flavors.
	Judge func(*queue.Target) []QueueFinding
}

// QueueFinding is what a use's judge finds, on one of the use's attributes.
type QueueFinding struct {
	Attribute path.Path
	Warning   bool
	Summary   string
	Detail    string // names the attribute and the fix
}

// QueueReport is a finding about a use planned before the resource that completed its queue path.
type QueueReport struct {
	What string // the use's
	QueueFinding
}

// AddTo adds the report to the diagnostics of the resource that completed the path: on the
// resource, naming the use and its attribute.
func (r QueueReport) AddTo(diags *diag.Diagnostics) {
	detail := r.What + " (planned before this resource): " + r.Detail
	if r.Warning {
		diags.AddWarning(r.Summary, detail)
	} else {
		diags.AddError(r.Summary, detail)
	}
}

// AddTo adds the finding to the use's own diagnostics, on its attribute.
func (f QueueFinding) AddTo(diags *diag.Diagnostics) {
	if f.Warning {
		diags.AddAttributeWarning(f.Attribute, f.Summary, f.Detail)
	} else {
		diags.AddAttributeError(f.Attribute, f.Summary, f.Detail)
	}
}

// PlanLocalQueues records LocalQueues of namespace, by name, with the ClusterQueue each feeds, and
// returns what the uses whose path they complete are found to do wrong.
func (p *ProviderData) PlanLocalQueues(namespace string, feeds map[string]string) []QueueReport {
	return p.queues.record(func(pq *plannedQueues) {
		for name, cq := range feeds {
			pq.local[namespace+"/"+name] = cq
		}
	})
}

// PlanClusterQueue records a planned ClusterQueue (its cohort and resource groups are what is
// judged), and returns what the uses whose path it completes are found to do wrong.
func (p *ProviderData) PlanClusterQueue(cq *kueue.ClusterQueue) []QueueReport {
	return p.queues.record(func(pq *plannedQueues) { pq.cluster[cq.Name] = cq })
}

// PlanQueueFlavor records a planned ResourceFlavor (node labels, taints and tolerations), and
// returns what the uses whose path it completes are found to do wrong.
func (p *ProviderData) PlanQueueFlavor(f *kueue.ResourceFlavor) []QueueReport {
	return p.queues.record(func(pq *plannedQueues) { pq.flavors[f.Name] = f })
}

// UseQueue records u and, when its queue's path is planned whole, returns what u's judge finds.
func (p *ProviderData) UseQueue(u QueueUse) []QueueFinding {
	pq := &p.queues
	pq.mu.Lock()
	defer pq.mu.Unlock()
	pq.init()
	pq.uses[u.What] = u
	if t, ok := pq.target(u); ok {
		return u.Judge(t)
	}
	return nil
}

func (pq *plannedQueues) init() {
	if pq.uses == nil {
		pq.local, pq.cluster, pq.flavors, pq.uses = map[string]string{}, map[string]*kueue.ClusterQueue{},
			map[string]*kueue.ResourceFlavor{}, map[string]QueueUse{}
	}
}

// record applies change and judges the uses whose path it completed.
func (pq *plannedQueues) record(change func(*plannedQueues)) []QueueReport {
	pq.mu.Lock()
	defer pq.mu.Unlock()
	pq.init()
	whole := map[string]bool{}
	for what, u := range pq.uses {
		_, whole[what] = pq.target(u)
	}
	change(pq)
	var out []QueueReport
	for _, what := range slices.Sorted(maps.Keys(pq.uses)) {
		u := pq.uses[what]
		if t, ok := pq.target(u); ok && !whole[what] {
			for _, f := range u.Judge(t) {
				out = append(out, QueueReport{What: what, QueueFinding: f})
			}
		}
	}
	return out
}

// target is u's queue as planned, when its LocalQueue, ClusterQueue and every flavor the
// ClusterQueue names are.
func (pq *plannedQueues) target(u QueueUse) (*queue.Target, bool) {
	name, ok := pq.local[u.Namespace+"/"+u.Queue]
	if !ok {
		return nil, false
	}
	cq, ok := pq.cluster[name]
	if !ok {
		return nil, false
	}
	t := &queue.Target{ClusterQueue: cq, Flavors: map[string]*kueue.ResourceFlavor{}}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			f, ok := pq.flavors[string(fq.Name)]
			if !ok {
				return nil, false
			}
			t.Flavors[f.Name] = f
		}
	}
	return t, true
}
