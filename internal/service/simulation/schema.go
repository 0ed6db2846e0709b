package simulation

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
)

func str(desc string, required bool, v ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{Required: required, Optional: !required, MarkdownDescription: desc, Validators: v}
}

// dur is a duration attribute from least to most, its bounds in its description.
func dur(desc string, required bool, least, most time.Duration) schema.StringAttribute {
	return str(desc+fmt.Sprintf(" A Go duration from `%s` to `%s`, e.g. `90m`, `2h30m`.", short(least), short(most)), required, durationIn{least, most})
}

// num is an optional number from least to most, its bounds in its description.
func num(desc string, least, most float64) schema.Float64Attribute {
	return schema.Float64Attribute{Optional: true, MarkdownDescription: desc + between(least, most),
		Validators: []validator.Float64{float64validator.Between(least, most)}}
}

// integer is an optional integer from least to most, its bounds in its description.
func integer(desc string, least, most int64) schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, MarkdownDescription: desc + between(float64(least), float64(most)),
		Validators: []validator.Int64{int64validator.Between(least, most)}}
}

// quantity is a quantity attribute from 0 to maxQuantity.
func quantity(desc string, required bool) schema.StringAttribute {
	return str(desc+" At most `"+maxQuantity.String()+"`.", required, framework.QuantityAtMost(maxQuantity))
}

// between is a description's sentence of an attribute's bounds.
func between(least, most float64) string {
	return " From " + numeral(least) + " to " + numeral(most) + "."
}

func numeral(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// weights are the values of a map or list of shares.
func weights() validator.Float64 { return float64validator.Between(0, maxWeight) }

func oneOf(values ...string) validator.String { return stringvalidator.OneOf(values...) }

func code(values ...string) string { return "`" + strings.Join(values, "`, `") + "`" }

// Null elements are refused at validation, naming the attribute, as no object can carry one.
var (
	noNullList = []validator.List{framework.NoNullElements()}
	noNullMap  = []validator.Map{framework.NoNullElements()}
)

// list is a required list of at least one and at most most elements, none null.
func list(most int) []validator.List {
	return []validator.List{listvalidator.SizeBetween(1, most), framework.NoNullElements()}
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "What the declared queues will do to a day of training jobs: each team's jobs are drawn " +
			"from its profile and run through Kueue's own scheduler, cache and queue manager (the version the provider " +
			"pins) on a virtual clock, at plan, without a cluster. Admission, borrowing, reclaim and preemption are " +
			"Kueue's decisions; the rest is the simulator's model, listed in `caveats`: quota is taken to be capacity " +
			"(pool limits, node fit and MIG slices per node are not modelled), an admitted run waits `node_start` before " +
			"it works, a spot run loses its node at `spot_interruptions_per_hour`, a preempted or interrupted run is " +
			"retried as a new pod that queues again and loses its work unless it `checkpoint`s. The same inputs give the " +
			"same outputs. The `ml-platform` module fills the queues from its own values (its `simulation` input).",
		Attributes: map[string]schema.Attribute{
			"horizon": dur("How long to simulate; defaults to `24h`. Jobs still waiting or running then are reported so.", false, minDuration, simulate.MaxHorizon),
			"interval": dur(fmt.Sprintf("The timeline's step; defaults to `15m`, at most the horizon. The timeline has at most %d steps "+
				"(the horizon over the interval) and %d values (its steps times the flavors and teams it reports): "+
				"a longer one is refused with what it would cost and the interval that would do.", simulate.MaxSteps, simulate.MaxTimelineValues),
				false, minDuration, simulate.MaxHorizon),
			"seed": schema.Int64Attribute{Optional: true, MarkdownDescription: "Draws the jobs and the spot interruptions; defaults to 1; any integer. " +
				"Another seed is another day of the same profiles."},
			"max_jobs": integer(fmt.Sprintf("The most jobs a plan simulates (defaults to %d): profiles that bring more are refused with "+
				"the memory and time they would take, never left to hang the plan.", defaultMaxJobs), 1, simulate.MaxJobs),
			"fair_sharing": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether Kueue's Configuration turns `fairSharing` on " +
				"(as the module's `fair_sharing`); defaults to false, Kueue's default."},
			"whole_gpus": schema.BoolAttribute{Optional: true, MarkdownDescription: "Simulate the same day without MIG: each queue's MIG " +
				"quota on a flavor becomes whole GPUs (its slices over the flavor's `units_per_gpu`, rounded down), a GPU costs what its " +
				"slices cost, and a job that asks for slices asks for as many whole GPUs. Beside a simulation without it, it shows what " +
				"the slices buy (the module's `simulation.compare_whole_gpus`)."},
			"flavors": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: fmt.Sprintf("The ResourceFlavors the queues name, with what Kueue does not know of them: prices and the GPUs a unit is; 1 to %d.", maxFlavors),
				Validators:          list(maxFlavors),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": str("The flavor's name.", true),
					"node_labels": schema.MapAttribute{ElementType: types.StringType, Optional: true, Validators: noNullMap,
						MarkdownDescription: "The flavor's `nodeLabels`, which Kueue matches against a job's node selector (the shapes' `gpu_type` and `capacity_type`). " +
							"`karpenter.sh/capacity-type = spot` makes its runs interruptible."},
					"price_per_hour": schema.MapAttribute{ElementType: types.Float64Type, Optional: true,
						Validators: []validator.Map{framework.NoNullElements(), mapvalidator.ValueFloat64sAre(float64validator.Between(0, maxPrice))},
						MarkdownDescription: "USD per hour of one unit of each resource, e.g. `{ \"nvidia.com/gpu\" = 4.10 }` (a node pool's `supplies[...].hourly_price`). Absent: free." +
							between(0, maxPrice)},
					"units_per_gpu": schema.MapAttribute{ElementType: types.Float64Type, Optional: true,
						Validators: []validator.Map{framework.NoNullElements(), mapvalidator.ValueFloat64sAre(float64validator.Between(minUnitsPerGPU, maxUnitsPerGPU))},
						MarkdownDescription: "How many units of a resource one GPU gives, e.g. `{ \"nvidia.com/mig-1g.10gb\" = 7 }`, to report MIG slices in GPUs; 1 when absent." +
							between(minUnitsPerGPU, maxUnitsPerGPU)},
				}},
			},
			"cluster_queues": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: fmt.Sprintf("The ClusterQueues, as the `mlplatform_cluster_queue` resources declare them (one resource group covering every resource its flavors list); 1 to %d.", maxQueues),
				Validators:          list(maxQueues),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":              str("The ClusterQueue's name.", true),
					"cohort":            str("The cohort it borrows and lends in.", false),
					"queueing_strategy": str("One of "+code(string(kueue.BestEffortFIFO), string(kueue.StrictFIFO))+"; Kueue's default is `BestEffortFIFO`.", false, oneOf(string(kueue.BestEffortFIFO), string(kueue.StrictFIFO))),
					"preemption": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Kueue's `preemption`; Kueue's defaults where absent (no preemption).",
						Attributes: map[string]schema.Attribute{
							"within_cluster_queue":   str("One of "+code("Never", "LowerPriority", "LowerOrNewerEqualPriority")+".", false, oneOf("Never", "LowerPriority", "LowerOrNewerEqualPriority")),
							"reclaim_within_cohort":  str("One of "+code("Never", "LowerPriority", "Any")+".", false, oneOf("Never", "LowerPriority", "Any")),
							"borrow_within_cohort":   str("`borrowWithinCohort.policy`: one of "+code("Never", "LowerPriority")+".", false, oneOf("Never", "LowerPriority")),
							"max_priority_threshold": integer("`borrowWithinCohort.maxPriorityThreshold`.", math.MinInt32, math.MaxInt32),
						}},
					"flavors": schema.ListNestedAttribute{Required: true, Validators: noNullList, MarkdownDescription: "The flavors in the order Kueue tries them, with a quota per resource.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"name": str("The flavor.", true),
							"resources": schema.MapNestedAttribute{Required: true, Validators: noNullMap, MarkdownDescription: "Quotas by resource name (`nvidia.com/gpu`, `cpu`, ...).",
								NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
									"nominal_quota":   quantity("A Kubernetes quantity.", true),
									"borrowing_limit": quantity("A Kubernetes quantity; absent: no limit.", false),
									"lending_limit":   quantity("A Kubernetes quantity; absent: all of the nominal quota.", false),
								}}},
						}}},
				}},
			},
			"local_queues": schema.ListNestedAttribute{
				Required:            true,
				Validators:          []validator.List{listvalidator.SizeAtMost(maxQueues), framework.NoNullElements()},
				MarkdownDescription: fmt.Sprintf("The LocalQueues the teams submit to; at most %d.", maxQueues),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"namespace":     str("The team's namespace.", true),
					"name":          str("The LocalQueue's name.", true),
					"cluster_queue": str("The ClusterQueue it feeds.", true),
				}},
			},
			"priority_classes": schema.MapAttribute{ElementType: types.Int64Type, Optional: true,
				Validators: []validator.Map{framework.NoNullElements(), mapvalidator.ValueInt64sAre(int64validator.Between(math.MinInt32, math.MaxInt32))},
				MarkdownDescription: "WorkloadPriorityClass values by name (the module's `priorities`); Kueue's are 32-bit integers." +
					between(math.MinInt32, math.MaxInt32)},
			"profiles": profilesAttribute(),

			"jobs":              schema.Int64Attribute{Computed: true, MarkdownDescription: "How many jobs the profiles brought over the horizon."},
			"scheduling_cycles": schema.Int64Attribute{Computed: true, MarkdownDescription: "How many scheduling cycles Kueue ran."},
			"teams":             teamsAttribute(),
			"flavor_usage": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Each flavor's GPU resources over the horizon.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"flavor":      schema.StringAttribute{Computed: true, MarkdownDescription: "The flavor."},
					"resource":    schema.StringAttribute{Computed: true, MarkdownDescription: "The GPU resource (`nvidia.com/gpu` or a MIG slice)."},
					"quota":       schema.Float64Attribute{Computed: true, MarkdownDescription: "The ClusterQueues' nominal quotas of it, summed, in units of the resource."},
					"peak":        schema.Float64Attribute{Computed: true, MarkdownDescription: "The most units held at once."},
					"unit_hours":  schema.Float64Attribute{Computed: true, MarkdownDescription: "Units held, times hours."},
					"utilisation": schema.Float64Attribute{Computed: true, MarkdownDescription: "`unit_hours` over the quota held for the whole horizon (0 to 1)."},
				}}},
			"timeline": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The horizon by `interval`, for charts.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"start_minutes": schema.Int64Attribute{Computed: true, MarkdownDescription: "The step's start, in minutes from the horizon's start."},
					"gpus_in_use":   schema.MapAttribute{Computed: true, ElementType: types.Float64Type, MarkdownDescription: "GPUs held by admitted runs, by flavor, averaged over the step."},
					"pending":       schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Jobs waiting, by team, at the step's end."},
				}}},
			"caveats": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "What the numbers rest on besides Kueue's own decisions."},
		},
	}
}

func profilesAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Required:   true,
		Validators: []validator.List{listvalidator.SizeAtMost(maxQueues), framework.NoNullElements()},
		MarkdownDescription: fmt.Sprintf("Each team's day: when its jobs arrive, what they ask for, how long they run; at most %d. "+
			"The jobs they bring over the horizon (their `jobs_per_day`, or their `arrivals`) are at most `max_jobs`.", maxQueues),
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"team": str("The team; the results are keyed by it. A team may have several profiles (kinds of its work) that feed one "+
				"ClusterQueue: their jobs are numbered apart and reported together.", true),
			"namespace":    str("The namespace its jobs run in; defaults to `team`.", false),
			"local_queue":  str("The LocalQueue its jobs name (in `local_queues`).", true),
			"jobs_per_day": num("Jobs arriving per day, at random (a Poisson process). Either this or `arrivals`.", 0, maxJobsPerDay),
			"daily_shape": schema.ListAttribute{ElementType: types.Float64Type, Optional: true,
				Validators: []validator.List{framework.NoNullElements(), listvalidator.SizeBetween(1, maxDailyParts), listvalidator.ValueFloat64sAre(weights())},
				MarkdownDescription: fmt.Sprintf("Weights of equal parts of the day (24 for hours; at most %d, a minute each): more jobs arrive "+
					"in the parts weighed more, and some part must weigh more than 0. Absent: evenly. Each weight from 0 to %s.", maxDailyParts, numeral(maxWeight))},
			"arrivals": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				Validators: []validator.List{framework.NoNullElements(), listvalidator.ValueStringsAre(durationIn{0, simulate.MaxHorizon})},
				MarkdownDescription: "Explicit arrival times from the horizon's start (at most the horizon), instead of `jobs_per_day`." +
					fmt.Sprintf(" Each a Go duration from `0s` to `%s`, e.g. `90m`, `2h30m`.", short(simulate.MaxHorizon))},
			"shapes": schema.ListNestedAttribute{Required: true, Validators: list(maxShapes),
				MarkdownDescription: fmt.Sprintf("The kinds of job, drawn by `weight`; 1 to %d.", maxShapes),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"weight":   num("This shape's share of the jobs; defaults to 1.", 0, maxWeight),
					"gpu_type": str("The GPU model (any name `data.mlplatform_gpu` takes): the pods select nodes labelled `mlplatform.io/gpu` with it, as the flavors of a node pool of that model are.", false),
					"mig_profile": str("A MIG profile of `gpu_type`, e.g. `1g.10gb`: the pods ask for `nvidia.com/mig-<profile>` instead of whole GPUs. "+
						"Without `gpu_type`, any model's flavor that has the resource.", false),
					"gpus":          integer("GPUs (or MIG slices) per pod; defaults to 1.", 1, maxGPUsPerPod),
					"pods":          integer("Pods per job, admitted together; defaults to 1.", 1, simulate.MaxPods),
					"cpu":           quantity("CPU per pod, a Kubernetes quantity; only counted where a queue has a `cpu` quota.", false),
					"memory":        quantity("Memory per pod, a Kubernetes quantity; only counted where a queue has a `memory` quota.", false),
					"capacity_type": str("`spot`, `on-demand` or `reserved`: the pods select nodes with that `karpenter.sh/capacity-type`. Absent: any.", false, oneOf("spot", "on-demand", "reserved")),
				}}},
			"duration": schema.SingleNestedAttribute{Required: true, MarkdownDescription: "How long a job computes once its node is up.",
				Attributes: map[string]schema.Attribute{
					"distribution": str("One of "+code(simulate.Distributions...)+": `fixed` and `exponential` take `mean`, `uniform` `min` and `max`, `lognormal` `mean` and `p95`.", true, oneOf(simulate.Distributions...)),
					"mean":         dur("The mean.", false, minDuration, simulate.MaxHorizon),
					"min":          dur("The least, for `uniform`.", false, minDuration, simulate.MaxHorizon),
					"max":          dur("The most: longer draws are cut to it (and `uniform`'s upper end).", false, minDuration, simulate.MaxHorizon),
					"p95":          dur("The 95th percentile, for `lognormal`.", false, minDuration, simulate.MaxHorizon),
				}},
			"priorities": schema.MapAttribute{ElementType: types.Float64Type, Optional: true,
				Validators: []validator.Map{framework.NoNullElements(), mapvalidator.ValueFloat64sAre(weights())},
				MarkdownDescription: "Shares of the jobs by WorkloadPriorityClass (in `priority_classes`), e.g. `{ low = 3, high = 1 }`. Absent: no priority class." +
					between(0, maxWeight)},
			"checkpoint":                  schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether a preempted or interrupted run resumes where it was (true) or starts over (false, the default)."},
			"node_start":                  dur("How long an admitted run waits for its node before it works; defaults to `0s`.", false, 0, simulate.MaxNodeStart),
			"spot_interruptions_per_hour": num("How often a run on a spot flavor loses its node, per hour it runs; defaults to 0.", 0, simulate.MaxSpotInterruptionsPerHour),
		}},
	}
}

func teamsAttribute() schema.MapNestedAttribute {
	i := func(d string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: d}
	}
	f := func(d string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: d}
	}
	return schema.MapNestedAttribute{Computed: true, MarkdownDescription: "Results by team (every LocalQueue's namespace, and every profile's `team`).",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"cluster_queue":    schema.StringAttribute{Computed: true, MarkdownDescription: "The ClusterQueue its LocalQueue feeds."},
			"submitted":        i("Jobs that arrived within the horizon."),
			"admitted":         i("Jobs admitted at least once."),
			"finished":         i("Jobs that ran to the end."),
			"waiting":          i("Jobs waiting at the horizon."),
			"running":          i("Jobs running at the horizon."),
			"gave_up":          i("Jobs given up after being queued 50 times (preemption loops)."),
			"wait_p50_minutes": f("Median wait from arrival to first admission; a job never admitted counts as waiting until the horizon."),
			"wait_p95_minutes": f("95th percentile of the wait (use it for an SLO in a `check` block)."),
			"wait_max_minutes": f("The longest wait."),
			"preemptions": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Preemptions of the team's runs by Kueue's reason: `InClusterQueue` (priority within its queue), `InCohortReclamation` (its lender took quota back), `InCohortReclaimWhileBorrowing`, `InCohortFairSharing`."},
			"most_preemptions_of_one_job": i("The most times one job was preempted: a loop shows here."),
			"interruptions":               i("Spot interruptions of the team's runs."),
			"gpu_hours":                   f("GPU-hours held by the team's admitted runs (MIG slices as fractions of a GPU), node start included."),
			"borrowed_gpu_hours":          f("GPU-hours its ClusterQueue held above its nominal quota."),
			"lent_gpu_hours":              f("GPU-hours of its unused quota others borrowed (the cohort's borrowing split by unused quota)."),
			"lost_gpu_hours":              f("GPU-hours of work thrown away by preemptions and interruptions of runs that do not checkpoint."),
			"cost":                        f("USD, from the flavors' `price_per_hour`."),
		}}}
}
