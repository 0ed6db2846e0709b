package simulation

import (
	"context"
	"math"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	config "sigs.k8s.io/kueue/apis/config/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
)

// configFairSharing is fair sharing on, with the preemption strategies of Kueue's sample
// Configuration (config/components/manager/controller_manager_config.yaml, v0.19.2).
var configFairSharing = config.FairSharing{PreemptionStrategies: []config.PreemptionStrategy{config.LessThanOrEqualToFinalShare, config.LessThanInitialShare}}

type dataSource struct{ framework.DataSourceBase }

var _ datasource.DataSourceWithConfigure = &dataSource{}

// NewDataSource is data.mlplatform_capacity_simulation.
func NewDataSource() datasource.DataSource { return &dataSource{} }

func (d *dataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_capacity_simulation"
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	x := &expander{}
	in := x.input(&m)
	profiles := make([]simulate.Profile, len(m.Profiles))
	for i := range m.Profiles {
		profiles[i] = x.profile(path.Root("profiles").AtListIndex(i), &m.Profiles[i], in.Horizon)
	}
	x.twoProfilesOneTeam(&in, profiles)
	if m.WholeGPUs.ValueBool() && !x.diags.HasError() {
		if err := simulate.WholeGPUs(&in, profiles); err != nil {
			x.fail(path.Root("whole_gpus"), "Cannot count in whole GPUs", err.Error()+" (set the flavor's units_per_gpu).")
		}
	}
	if !x.diags.HasError() { // what a shape asks for is only known once its values are
		x.admissible(&in, profiles)
	}
	maxJobs := int64(defaultMaxJobs)
	if !m.MaxJobs.IsNull() {
		maxJobs = m.MaxJobs.ValueInt64()
	}
	// What the run will take, refused before any of it is done.
	w := workOf(&in, profiles)
	x.timeline(w, in.Horizon, in.Interval)
	x.jobs(w, in.Horizon, maxJobs)
	resp.Diagnostics.Append(x.diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	in.Jobs = simulate.Jobs(profiles, in.Horizon, in.Seed)
	if x := (&expander{}); x.drawn(w, len(in.Jobs), in.Horizon, maxJobs) {
		resp.Diagnostics.Append(x.diags...)
		return
	}
	res, err := simulate.Run(ctx, in)
	if err != nil {
		resp.Diagnostics.AddError("Simulation failed", err.Error())
		return
	}
	flatten(&m, res, len(in.Jobs))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func minutes(d time.Duration) types.Float64 { return types.Float64Value(round(d.Minutes())) }

// round keeps two decimals: the outputs are read by people and compared in check blocks.
func round(v float64) float64 { return math.Round(v*100) / 100 }

func flatten(m *model, res *simulate.Result, jobs int) {
	m.Jobs = types.Int64Value(int64(jobs))
	m.SchedulingCycles = types.Int64Value(int64(res.Cycles))
	m.Teams = map[string]teamResultModel{}
	for _, t := range res.Teams {
		pre := map[string]types.Int64{}
		for r, n := range t.Preemptions {
			pre[r] = types.Int64Value(int64(n))
		}
		m.Teams[t.Team] = teamResultModel{
			ClusterQueue: types.StringValue(t.ClusterQueue),
			Submitted:    types.Int64Value(int64(t.Submitted)), Admitted: types.Int64Value(int64(t.Admitted)),
			Finished: types.Int64Value(int64(t.Finished)), Waiting: types.Int64Value(int64(t.Waiting)),
			Running: types.Int64Value(int64(t.Running)), GaveUp: types.Int64Value(int64(t.GaveUp)),
			WaitP50Minutes: minutes(t.WaitP50), WaitP95Minutes: minutes(t.WaitP95), WaitMaxMinutes: minutes(t.WaitMax),
			Preemptions:             pre,
			MostPreemptionsOfOneJob: types.Int64Value(int64(t.MostPreemptionsOfOneJob)),
			Interruptions:           types.Int64Value(int64(t.Interruptions)),
			GPUHours:                types.Float64Value(round(t.GPUHours)),
			BorrowedGPUHours:        types.Float64Value(round(t.BorrowedGPUHours)),
			LentGPUHours:            types.Float64Value(round(t.LentGPUHours)),
			LostGPUHours:            types.Float64Value(round(t.LostGPUHours)),
			Cost:                    types.Float64Value(round(t.Cost)),
		}
	}
	m.FlavorUsage = nil
	for _, f := range res.Flavors {
		if f.Quota == 0 && f.UnitHours == 0 {
			continue // a resource of the group the flavor gives none of
		}
		m.FlavorUsage = append(m.FlavorUsage, flavorUsageModel{
			Flavor: types.StringValue(f.Flavor), Resource: types.StringValue(f.Resource),
			Quota: types.Float64Value(f.Quota), Peak: types.Float64Value(f.Peak),
			UnitHours: types.Float64Value(round(f.UnitHours)), Utilisation: types.Float64Value(round(f.Utilisation)),
		})
	}
	m.Timeline = nil
	for _, s := range res.Timeline {
		step := stepModel{StartMinutes: types.Int64Value(int64(s.At.Minutes())), GPUsInUse: map[string]types.Float64{}, Pending: map[string]types.Int64{}}
		for f, g := range s.InUse {
			step.GPUsInUse[f] = types.Float64Value(round(g))
		}
		for t, n := range s.Pending {
			step.Pending[t] = types.Int64Value(int64(n))
		}
		m.Timeline = append(m.Timeline, step)
	}
	m.Caveats = nil
	for _, c := range res.Caveats {
		m.Caveats = append(m.Caveats, types.StringValue(c))
	}
}
