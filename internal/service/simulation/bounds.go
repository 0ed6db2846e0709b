package simulation

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
)

// The bounds of every number the data source takes, beside the engine's own (simulate.Max*).
// The schema's validators and descriptions are built from them, so the docs and the checks
// cannot disagree.
const (
	// minDuration is the shortest interval and job duration: the timeline counts in minutes,
	// and the engine draws no run shorter.
	minDuration    = time.Minute
	maxJobsPerDay  = 1e6
	maxWeight      = 1e6
	maxDailyParts  = 24 * 60 // a part of at least a minute
	maxGPUsPerPod  = 1000
	maxPrice       = 1e6 // USD per unit-hour
	minUnitsPerGPU = 1
	maxUnitsPerGPU = 1000
	maxFlavors     = 256
	maxQueues      = 1000 // ClusterQueues, LocalQueues, profiles
	maxShapes      = 100
	defaultMaxJobs = 20000
)

// maxQuantity bounds every quantity: Kueue counts in int64 (CPU in thousandths), so that sums of
// quotas and of requests times pods stay far from overflowing.
var maxQuantity = resource.MustParse("1Pi")

// What a run costs, measured by BenchmarkLimits (internal/simulate) and by planning the largest
// timeline through Terraform 1.8.5 (2 cores; PERFORMANCE.md): the provider's memory above its
// own, per job and per timeline step and value; Terraform's per step and value; time per job.
const (
	providerBaseMB      = 90
	providerKBPerJob    = 8
	providerKBPerStep   = 8.4
	providerKBPerValue  = 0.65
	terraformBaseMB     = 70
	terraformKBPerStep  = 4.6
	terraformKBPerValue = 0.7
	msPerJob            = 3
)

// work is what a simulation will take: its jobs (expected, before they are drawn) and its
// timeline.
type work struct {
	jobs float64
	// runs counts the jobs again for each retry of a spot interruption: the Workloads Kueue
	// queues, which the time goes with.
	runs           float64
	steps          int64
	valuesPerStep  int
	flavors, teams int
}

func (w work) values() int64 { return w.steps * int64(w.valuesPerStep) }

func (w work) providerMB() float64 {
	return providerBaseMB + (w.jobs*providerKBPerJob+float64(w.steps)*providerKBPerStep+float64(w.values())*providerKBPerValue)/1024
}

func (w work) terraformMB() float64 {
	return terraformBaseMB + (float64(w.steps)*terraformKBPerStep+float64(w.values())*terraformKBPerValue)/1024
}

func (w work) duration() time.Duration {
	return (time.Duration(w.runs*msPerJob) * time.Millisecond).Round(time.Second)
}

// cost says what the work takes, for a refusal.
func (w work) cost() string {
	return fmt.Sprintf("about %.0f MB of the provider's memory and %.0f MB of Terraform's, and %s of plan time",
		w.providerMB(), w.terraformMB(), w.duration())
}

// timeline refuses a timeline past simulate.MaxSteps or MaxTimelineValues, at interval, with
// the interval that would do.
func (x *expander) timeline(w work, horizon, interval time.Duration) {
	var over string
	least := time.Duration(0)
	switch {
	case w.steps > simulate.MaxSteps:
		over = fmt.Sprintf("%d steps (horizon %s by interval %s), more than %d", w.steps, short(horizon), short(interval), simulate.MaxSteps)
		least = ceilDiv(horizon, simulate.MaxSteps)
	case w.values() > simulate.MaxTimelineValues:
		over = fmt.Sprintf("%d steps of %d values (%d flavors and %d teams): %d values, more than %d", w.steps, w.valuesPerStep,
			w.flavors, w.teams, w.values(), simulate.MaxTimelineValues)
		least = ceilDiv(horizon, simulate.MaxTimelineValues/int64(w.valuesPerStep))
	default:
		return
	}
	least = (least + time.Minute - 1).Truncate(time.Minute)
	x.fail(path.Root("interval"), "Timeline too long", fmt.Sprintf("The timeline would have %s: %s. Set interval to %s or more, or shorten horizon.",
		over, w.cost(), short(least)))
}

func ceilDiv(d time.Duration, n int64) time.Duration {
	return time.Duration((int64(d) + n - 1) / n)
}

// jobs refuses profiles that bring more jobs than max_jobs, counting the retries of spot
// interruptions, before they are drawn.
func (x *expander) jobs(w work, horizon time.Duration, maxJobs int64) {
	if w.runs <= float64(maxJobs) {
		return
	}
	retries := ","
	if w.runs > w.jobs {
		retries = fmt.Sprintf(", queued about %.0f times with the retries of their spot interruptions,", math.Ceil(w.runs))
	}
	x.fail(path.Root("profiles"), "Simulation too large",
		fmt.Sprintf("The profiles bring about %.0f jobs over %s%s more than max_jobs (%d): %s. "+
			"Shorten the horizon, lower jobs_per_day or spot_interruptions_per_hour, or raise max_jobs (at most %d).",
			math.Ceil(w.jobs), short(horizon), retries, maxJobs, w.cost(), simulate.MaxJobs))
}

// drawn refuses, once the jobs are drawn, more than max_jobs: a Poisson draw can pass its mean.
func (x *expander) drawn(w work, n int, horizon time.Duration, maxJobs int64) bool {
	if int64(n) <= maxJobs {
		return false
	}
	x.fail(path.Root("profiles"), "Simulation too large", fmt.Sprintf(
		"The profiles drew %d jobs over %s (about %.0f expected), more than max_jobs (%d). Raise max_jobs (at most %d), or lower jobs_per_day.",
		n, short(horizon), w.jobs, maxJobs, simulate.MaxJobs))
	return true
}

// workOf is what the input and profiles will take: the timeline reports each flavor's GPUs in
// use and each team's jobs waiting at every step.
func workOf(in *simulate.Input, profiles []simulate.Profile) work {
	w := work{steps: simulate.Steps(in.Horizon, in.Interval), flavors: len(in.Flavors)}
	spot := false
	for _, f := range in.Flavor {
		spot = spot || f.Spot
	}
	teams := map[string]bool{}
	for i := range profiles {
		w.jobs += profiles[i].Expected(in.Horizon)
		w.runs += profiles[i].Runs(in.Horizon, spot)
		teams[profiles[i].Team] = true
	}
	w.teams = len(teams)
	w.valuesPerStep = max(1, w.flavors+w.teams)
	return w
}

var _ datasource.DataSourceWithValidateConfig = &dataSource{}

// ValidateConfig refuses a timeline of too many steps as soon as horizon and interval are known,
// even when the read waits for apply (a profile's value known only then).
func (d *dataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var h, i types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("horizon"), &h)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("interval"), &i)...)
	if h.IsUnknown() || i.IsUnknown() || resp.Diagnostics.HasError() {
		return
	}
	x := &expander{}
	horizon, interval := x.span(h, i)
	if x.diags.HasError() {
		return // the attributes' own validators say why
	}
	x.timeline(work{steps: simulate.Steps(horizon, interval), valuesPerStep: 1}, horizon, interval)
	resp.Diagnostics.Append(x.diags...)
}

// span is the horizon and the interval, with their defaults.
func (x *expander) span(h, i types.String) (time.Duration, time.Duration) {
	horizon := x.duration(path.Root("horizon"), h, 24*time.Hour)
	interval := x.duration(path.Root("interval"), i, 15*time.Minute)
	return horizon, interval
}

// twoProfilesOneTeam refuses profiles of one team that feed different ClusterQueues: a team's
// results are one ClusterQueue's (what it borrowed and lent). Profiles of one team that share a
// queue are the team's kinds of work, simulated together.
func (x *expander) twoProfilesOneTeam(in *simulate.Input, profiles []simulate.Profile) {
	cqOf := map[string]string{}
	for _, lq := range in.LocalQueues {
		cqOf[lq.Namespace+"/"+lq.Name] = string(lq.Spec.ClusterQueue)
	}
	first := map[string]int{}
	for i, p := range profiles {
		j, seen := first[p.Team]
		if !seen {
			first[p.Team] = i
			continue
		}
		a, b := cqOf[profiles[j].Namespace+"/"+profiles[j].Queue], cqOf[p.Namespace+"/"+p.Queue]
		if a != "" && b != "" && a != b { // an unknown local queue is refused on its own (admissible)
			x.fail(path.Root("profiles").AtListIndex(i).AtName("team"), "One team, two ClusterQueues",
				fmt.Sprintf("profiles[%d] and profiles[%d] are both team %s's, but feed ClusterQueues %s and %s; a team's results are one ClusterQueue's. "+
					"Give one of them another team name.", j, i, p.Team, a, b))
		}
	}
}
