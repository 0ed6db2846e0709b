package simulation

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
)

// expander turns the configuration into the engine's input, refusing bad values by attribute.
type expander struct{ diags diag.Diagnostics }

// fail refuses the value at p; the detail names p, since Terraform points only at the data
// source for an attribute inside a list of objects.
func (x *expander) fail(p path.Path, summary, detail string) {
	x.diags.AddAttributeError(p, summary, p.String()+": "+detail)
}

func (x *expander) duration(p path.Path, v types.String, def time.Duration) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return def
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d < 0 {
		x.fail(p, "Invalid duration", fmt.Sprintf("%q is not a duration of zero or more (e.g. 90m, 2h30m).", v.ValueString()))
		return def
	}
	return d
}

func (x *expander) quantity(p path.Path, v types.String) *resource.Quantity {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	q, err := framework.ParseQuantity(v.ValueString())
	if err != nil || q.Sign() < 0 {
		x.fail(p, "Invalid quantity", fmt.Sprintf("%q is not a Kubernetes quantity of zero or more (e.g. 8, 500m, 64Gi).", v.ValueString()))
		return nil
	}
	return &q
}

func (x *expander) input(m *model) simulate.Input {
	in := simulate.Input{
		Horizon:  x.duration(path.Root("horizon"), m.Horizon, 24*time.Hour),
		Interval: x.duration(path.Root("interval"), m.Interval, 15*time.Minute),
		Seed:     uint64(m.Seed.ValueInt64()),
		Flavor:   map[string]simulate.FlavorModel{},
	}
	if m.Seed.IsNull() {
		in.Seed = 1
	}
	if in.Horizon <= 0 {
		x.fail(path.Root("horizon"), "Invalid horizon", "The horizon must be longer than zero.")
	}
	if in.Interval <= 0 || in.Interval > in.Horizon {
		x.fail(path.Root("interval"), "Invalid interval", "The interval must be longer than zero and no longer than the horizon.")
	}
	if m.FairSharing.ValueBool() {
		in.FairSharing = &configFairSharing
	}
	for i, f := range m.Flavors {
		rf := kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: f.Name.ValueString()}}
		labels := map[string]string{}
		for k, v := range f.NodeLabels {
			labels[k] = v.ValueString()
		}
		rf.Spec.NodeLabels = labels
		fm := simulate.FlavorModel{Price: map[corev1.ResourceName]float64{}, UnitsPerGPU: map[corev1.ResourceName]float64{},
			Spot: labels[capacity.LabelCapacityType] == "spot"}
		for r, p := range f.PricePerHour {
			if p.ValueFloat64() < 0 {
				x.fail(path.Root("flavors").AtListIndex(i).AtName("price_per_hour").AtMapKey(r), "Invalid price", "A price must not be negative.")
			}
			fm.Price[corev1.ResourceName(r)] = p.ValueFloat64()
		}
		for r, u := range f.UnitsPerGPU {
			if u.ValueFloat64() <= 0 {
				x.fail(path.Root("flavors").AtListIndex(i).AtName("units_per_gpu").AtMapKey(r), "Invalid units per GPU", "Units per GPU must be more than zero.")
			}
			fm.UnitsPerGPU[corev1.ResourceName(r)] = u.ValueFloat64()
		}
		in.Flavors = append(in.Flavors, rf)
		in.Flavor[rf.Name] = fm
	}
	for i := range m.ClusterQueues {
		in.ClusterQueues = append(in.ClusterQueues, x.clusterQueue(path.Root("cluster_queues").AtListIndex(i), &m.ClusterQueues[i]))
	}
	for _, lq := range m.LocalQueues {
		in.LocalQueues = append(in.LocalQueues, kueue.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Namespace: lq.Namespace.ValueString(), Name: lq.Name.ValueString()},
			Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(lq.ClusterQueue.ValueString())},
		})
	}
	names := slices.Sorted(maps.Keys(m.PriorityClasses))
	for _, n := range names {
		in.PriorityClasses = append(in.PriorityClasses, kueue.WorkloadPriorityClass{
			ObjectMeta: metav1.ObjectMeta{Name: n}, Value: int32(m.PriorityClasses[n].ValueInt64()),
		})
	}
	return in
}

func (x *expander) clusterQueue(p path.Path, cq *clusterQueueModel) kueue.ClusterQueue {
	out := kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: cq.Name.ValueString()},
		Spec: kueue.ClusterQueueSpec{
			CohortName:        kueue.CohortReference(cq.Cohort.ValueString()),
			NamespaceSelector: &metav1.LabelSelector{},
			QueueingStrategy:  kueue.QueueingStrategy(cq.QueueingStrategy.ValueString()),
		},
	}
	if pre := cq.Preemption; pre != nil {
		out.Spec.Preemption = &kueue.ClusterQueuePreemption{
			WithinClusterQueue:  kueue.PreemptionPolicy(pre.WithinClusterQueue.ValueString()),
			ReclaimWithinCohort: kueue.PreemptionPolicy(pre.ReclaimWithinCohort.ValueString()),
		}
		if !pre.BorrowWithinCohort.IsNull() {
			out.Spec.Preemption.BorrowWithinCohort = &kueue.BorrowWithinCohort{Policy: kueue.BorrowWithinCohortPolicy(pre.BorrowWithinCohort.ValueString())}
			if !pre.MaxPriorityThreshold.IsNull() {
				v := int32(pre.MaxPriorityThreshold.ValueInt64())
				out.Spec.Preemption.BorrowWithinCohort.MaxPriorityThreshold = &v
			}
		}
	}
	// One resource group: Kueue wants every flavor of a group to list the group's resources in
	// the same order, so a resource a flavor does not name gets a quota of 0 there.
	var covered []corev1.ResourceName
	for _, f := range cq.Flavors {
		for r := range f.Resources {
			if !slices.Contains(covered, corev1.ResourceName(r)) {
				covered = append(covered, corev1.ResourceName(r))
			}
		}
	}
	slices.Sort(covered)
	rg := kueue.ResourceGroup{CoveredResources: covered}
	for i, f := range cq.Flavors {
		fq := kueue.FlavorQuotas{Name: kueue.ResourceFlavorReference(f.Name.ValueString())}
		for _, r := range covered {
			rq := kueue.ResourceQuota{Name: r}
			if q, ok := f.Resources[string(r)]; ok {
				rp := p.AtName("flavors").AtListIndex(i).AtName("resources").AtMapKey(string(r))
				if n := x.quantity(rp.AtName("nominal_quota"), q.NominalQuota); n != nil {
					rq.NominalQuota = *n
				}
				rq.BorrowingLimit = x.quantity(rp.AtName("borrowing_limit"), q.BorrowingLimit)
				rq.LendingLimit = x.quantity(rp.AtName("lending_limit"), q.LendingLimit)
			}
			fq.Resources = append(fq.Resources, rq)
		}
		rg.Flavors = append(rg.Flavors, fq)
	}
	out.Spec.ResourceGroups = []kueue.ResourceGroup{rg}
	return out
}

// profile is one team's profile, its GPU types and MIG profiles checked against the catalog.
func (x *expander) profile(p path.Path, pm *profileModel, horizon time.Duration) simulate.Profile {
	out := simulate.Profile{
		Team: pm.Team.ValueString(), Namespace: pm.Namespace.ValueString(), Queue: pm.LocalQueue.ValueString(),
		JobsPerDay: pm.JobsPerDay.ValueFloat64(), Checkpoint: pm.Checkpoint.ValueBool(),
		NodeStart:                x.duration(p.AtName("node_start"), pm.NodeStart, 0),
		SpotInterruptionsPerHour: pm.SpotInterruptionsPerHour.ValueFloat64(),
	}
	if out.Namespace == "" {
		out.Namespace = out.Team
	}
	total := 0.0
	for _, w := range pm.DailyShape {
		if w.ValueFloat64() < 0 {
			x.fail(p.AtName("daily_shape"), "Invalid daily shape", "Weights must not be negative.")
		}
		total += w.ValueFloat64()
		out.DailyShape = append(out.DailyShape, w.ValueFloat64())
	}
	if len(pm.DailyShape) > 0 && !(total > 0) {
		x.fail(p.AtName("daily_shape"), "Invalid daily shape", "Some part of the day must weigh more than 0: with none, no job would ever arrive.")
	}
	for i, a := range pm.Arrivals {
		at := x.duration(p.AtName("arrivals").AtListIndex(i), a, 0)
		if at > horizon {
			x.fail(p.AtName("arrivals").AtListIndex(i), "Arrival after the horizon", fmt.Sprintf("%s is after the horizon (%s).", at, horizon))
		}
		out.Arrivals = append(out.Arrivals, at)
	}
	if (len(pm.Arrivals) > 0) == !pm.JobsPerDay.IsNull() {
		x.fail(p, "Arrivals", "Set exactly one of jobs_per_day and arrivals.")
	}
	d := pm.Duration
	dp := p.AtName("duration")
	out.Duration = simulate.Distribution{
		Kind: d.Distribution.ValueString(),
		Mean: x.duration(dp.AtName("mean"), d.Mean, 0), Min: x.duration(dp.AtName("min"), d.Min, 0),
		Max: x.duration(dp.AtName("max"), d.Max, 0), P95: x.duration(dp.AtName("p95"), d.P95, 0),
	}
	if err := out.Duration.Check(); err != nil {
		x.fail(dp, "Invalid duration distribution", err.Error()+".")
	}
	for _, n := range slices.Sorted(maps.Keys(pm.Priorities)) {
		out.Priorities = append(out.Priorities, simulate.Weighted{Name: n, Weight: pm.Priorities[n].ValueFloat64()})
	}
	for i := range pm.Shapes {
		out.Shapes = append(out.Shapes, x.shape(p.AtName("shapes").AtListIndex(i), &pm.Shapes[i]))
	}
	return out
}

func (x *expander) shape(p path.Path, sm *shapeModel) simulate.Shape {
	out := simulate.Shape{Weight: 1, Pods: 1, Requests: corev1.ResourceList{}, NodeSelector: map[string]string{}}
	if !sm.Weight.IsNull() {
		out.Weight = sm.Weight.ValueFloat64()
	}
	if !sm.Pods.IsNull() {
		out.Pods = int32(sm.Pods.ValueInt64())
	}
	count := int64(1)
	if !sm.GPUs.IsNull() {
		count = sm.GPUs.ValueInt64()
	}
	var model *gpu.Model
	if !sm.GPUType.IsNull() {
		m, err := gpu.Lookup(sm.GPUType.ValueString())
		if err != nil {
			x.fail(p.AtName("gpu_type"), "Unknown GPU type", err.Error())
		} else {
			model = m
			out.NodeSelector[capacity.LabelGPU] = capacity.GPULabel(m)
		}
	}
	res := corev1.ResourceName("nvidia.com/gpu")
	if !sm.MIGProfile.IsNull() {
		name := sm.MIGProfile.ValueString()
		if err := checkMIGProfile(model, name); err != nil {
			x.fail(p.AtName("mig_profile"), "Unknown MIG profile", err.Error())
		}
		res = corev1.ResourceName("nvidia.com/mig-" + strings.ReplaceAll(name, "+", "."))
	}
	out.Requests[res] = *resource.NewQuantity(count, resource.DecimalSI)
	if q := x.quantity(p.AtName("cpu"), sm.CPU); q != nil {
		out.Requests[corev1.ResourceCPU] = *q
	}
	if q := x.quantity(p.AtName("memory"), sm.Memory); q != nil {
		out.Requests[corev1.ResourceMemory] = *q
	}
	if !sm.CapacityType.IsNull() {
		out.NodeSelector[capacity.LabelCapacityType] = sm.CapacityType.ValueString()
	}
	return out
}

// checkMIGProfile refuses a profile the model (or, without one, every model) lacks, naming the
// models that have it or the model's own profiles.
func checkMIGProfile(m *gpu.Model, name string) error {
	if m != nil {
		_, err := m.Profile(name)
		return err
	}
	for _, o := range gpu.Models() {
		if _, err := o.Profile(name); err == nil {
			return nil
		}
	}
	return fmt.Errorf("no GPU model has a MIG profile %s (e.g. 1g.10gb, 3g.40gb of the A100-SXM4-80GB)", name)
}
