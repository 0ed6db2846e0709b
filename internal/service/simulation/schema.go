package simulation

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
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

func num(desc string, v ...validator.Float64) schema.Float64Attribute {
	return schema.Float64Attribute{Optional: true, MarkdownDescription: desc, Validators: v}
}

func oneOf(values ...string) validator.String { return stringvalidator.OneOf(values...) }

func code(values ...string) string { return "`" + strings.Join(values, "`, `") + "`" }

// Null elements are refused at validation, naming the attribute, as no object can carry one.
var (
	noNullList = []validator.List{framework.NoNullElements()}
	noNullMap  = []validator.Map{framework.NoNullElements()}
)

const durationHint = " A Go duration, e.g. `90m`, `2h30m`."

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	nonNegative := float64validator.AtLeast(0)
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
			"horizon":  str("How long to simulate; defaults to `24h`. Jobs still waiting or running then are reported so."+durationHint, false),
			"interval": str("The timeline's step; defaults to `15m`."+durationHint, false),
			"seed": schema.Int64Attribute{Optional: true, MarkdownDescription: "Draws the jobs and the spot interruptions; defaults to 1. " +
				"Another seed is another day of the same profiles."},
			"max_jobs": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)},
				MarkdownDescription: "The most jobs a plan simulates (defaults to 20000): a larger profile is refused with its estimated time, never left to hang the plan."},
			"fair_sharing": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether Kueue's Configuration turns `fairSharing` on " +
				"(as the module's `fair_sharing`); defaults to false, Kueue's default."},
			"whole_gpus": schema.BoolAttribute{Optional: true, MarkdownDescription: "Simulate the same day without MIG: each queue's MIG " +
				"quota on a flavor becomes whole GPUs (its slices over the flavor's `units_per_gpu`, rounded down), a GPU costs what its " +
				"slices cost, and a job that asks for slices asks for as many whole GPUs. Beside a simulation without it, it shows what " +
				"the slices buy (the module's `simulation.compare_whole_gpus`)."},
			"flavors": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "The ResourceFlavors the queues name, with what Kueue does not know of them: prices and the GPUs a unit is.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), framework.NoNullElements()},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": str("The flavor's name.", true),
					"node_labels": schema.MapAttribute{ElementType: types.StringType, Optional: true, Validators: noNullMap,
						MarkdownDescription: "The flavor's `nodeLabels`, which Kueue matches against a job's node selector (the shapes' `gpu_type` and `capacity_type`). " +
							"`karpenter.sh/capacity-type = spot` makes its runs interruptible."},
					"price_per_hour": schema.MapAttribute{ElementType: types.Float64Type, Optional: true, Validators: noNullMap,
						MarkdownDescription: "USD per hour of one unit of each resource, e.g. `{ \"nvidia.com/gpu\" = 4.10 }` (a node pool's `supplies[...].hourly_price`). Absent: free."},
					"units_per_gpu": schema.MapAttribute{ElementType: types.Float64Type, Optional: true, Validators: noNullMap,
						MarkdownDescription: "How many units of a resource one GPU gives, e.g. `{ \"nvidia.com/mig-1g.10gb\" = 7 }`, to report MIG slices in GPUs; 1 when absent."},
				}},
			},
			"cluster_queues": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "The ClusterQueues, as the `mlplatform_cluster_queue` resources declare them (one resource group covering every resource its flavors list).",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), framework.NoNullElements()},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":              str("The ClusterQueue's name.", true),
					"cohort":            str("The cohort it borrows and lends in.", false),
					"queueing_strategy": str("One of "+code(string(kueue.BestEffortFIFO), string(kueue.StrictFIFO))+"; Kueue's default is `BestEffortFIFO`.", false, oneOf(string(kueue.BestEffortFIFO), string(kueue.StrictFIFO))),
					"preemption": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Kueue's `preemption`; Kueue's defaults where absent (no preemption).",
						Attributes: map[string]schema.Attribute{
							"within_cluster_queue":   str("One of "+code("Never", "LowerPriority", "LowerOrNewerEqualPriority")+".", false, oneOf("Never", "LowerPriority", "LowerOrNewerEqualPriority")),
							"reclaim_within_cohort":  str("One of "+code("Never", "LowerPriority", "Any")+".", false, oneOf("Never", "LowerPriority", "Any")),
							"borrow_within_cohort":   str("`borrowWithinCohort.policy`: one of "+code("Never", "LowerPriority")+".", false, oneOf("Never", "LowerPriority")),
							"max_priority_threshold": schema.Int64Attribute{Optional: true, MarkdownDescription: "`borrowWithinCohort.maxPriorityThreshold`."},
						}},
					"flavors": schema.ListNestedAttribute{Required: true, Validators: noNullList, MarkdownDescription: "The flavors in the order Kueue tries them, with a quota per resource.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"name": str("The flavor.", true),
							"resources": schema.MapNestedAttribute{Required: true, Validators: noNullMap, MarkdownDescription: "Quotas by resource name (`nvidia.com/gpu`, `cpu`, ...).",
								NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
									"nominal_quota":   str("A Kubernetes quantity.", true),
									"borrowing_limit": str("A Kubernetes quantity; absent: no limit.", false),
									"lending_limit":   str("A Kubernetes quantity; absent: all of the nominal quota.", false),
								}}},
						}}},
				}},
			},
			"local_queues": schema.ListNestedAttribute{
				Required:            true,
				Validators:          noNullList,
				MarkdownDescription: "The LocalQueues the teams submit to.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"namespace":     str("The team's namespace.", true),
					"name":          str("The LocalQueue's name.", true),
					"cluster_queue": str("The ClusterQueue it feeds.", true),
				}},
			},
			"priority_classes": schema.MapAttribute{ElementType: types.Int64Type, Optional: true, Validators: noNullMap,
				MarkdownDescription: "WorkloadPriorityClass values by name (the module's `priorities`)."},
			"profiles": profilesAttribute(nonNegative),

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

func profilesAttribute(nonNegative validator.Float64) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Required:            true,
		Validators:          noNullList,
		MarkdownDescription: "Each team's day: when its jobs arrive, what they ask for, how long they run.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"team":         str("The team; the results are keyed by it.", true),
			"namespace":    str("The namespace its jobs run in; defaults to `team`.", false),
			"local_queue":  str("The LocalQueue its jobs name (in `local_queues`).", true),
			"jobs_per_day": num("Jobs arriving per day, at random (a Poisson process). Either this or `arrivals`.", nonNegative),
			"daily_shape": schema.ListAttribute{ElementType: types.Float64Type, Optional: true, Validators: noNullList,
				MarkdownDescription: "Weights of equal parts of the day (24 for hours): more jobs arrive in the parts weighed more. Absent: evenly."},
			"arrivals": schema.ListAttribute{ElementType: types.StringType, Optional: true, Validators: noNullList,
				MarkdownDescription: "Explicit arrival times from the horizon's start, instead of `jobs_per_day`." + durationHint},
			"shapes": schema.ListNestedAttribute{Required: true, Validators: []validator.List{listvalidator.SizeAtLeast(1), framework.NoNullElements()},
				MarkdownDescription: "The kinds of job, drawn by `weight`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"weight":   num("This shape's share of the jobs; defaults to 1.", nonNegative),
					"gpu_type": str("The GPU model (any name `data.mlplatform_gpu` takes): the pods select nodes labelled `mlplatform.io/gpu` with it, as the flavors of a node pool of that model are.", false),
					"mig_profile": str("A MIG profile of `gpu_type`, e.g. `1g.10gb`: the pods ask for `nvidia.com/mig-<profile>` instead of whole GPUs. "+
						"Without `gpu_type`, any model's flavor that has the resource.", false),
					"gpus":          schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)}, MarkdownDescription: "GPUs (or MIG slices) per pod; defaults to 1."},
					"pods":          schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)}, MarkdownDescription: "Pods per job, admitted together; defaults to 1."},
					"cpu":           str("CPU per pod, a Kubernetes quantity; only counted where a queue has a `cpu` quota.", false),
					"memory":        str("Memory per pod, a Kubernetes quantity; only counted where a queue has a `memory` quota.", false),
					"capacity_type": str("`spot`, `on-demand` or `reserved`: the pods select nodes with that `karpenter.sh/capacity-type`. Absent: any.", false, oneOf("spot", "on-demand", "reserved")),
				}}},
			"duration": schema.SingleNestedAttribute{Required: true, MarkdownDescription: "How long a job computes once its node is up.",
				Attributes: map[string]schema.Attribute{
					"distribution": str("One of "+code(simulate.Distributions...)+": `fixed` and `exponential` take `mean`, `uniform` `min` and `max`, `lognormal` `mean` and `p95`.", true, oneOf(simulate.Distributions...)),
					"mean":         str("The mean."+durationHint, false),
					"min":          str("The least, for `uniform`."+durationHint, false),
					"max":          str("The most: longer draws are cut to it (and `uniform`'s upper end)."+durationHint, false),
					"p95":          str("The 95th percentile, for `lognormal`."+durationHint, false),
				}},
			"priorities": schema.MapAttribute{ElementType: types.Float64Type, Optional: true, Validators: noNullMap,
				MarkdownDescription: "Shares of the jobs by WorkloadPriorityClass (in `priority_classes`), e.g. `{ low = 3, high = 1 }`. Absent: no priority class."},
			"checkpoint":                  schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether a preempted or interrupted run resumes where it was (true) or starts over (false, the default)."},
			"node_start":                  str("How long an admitted run waits for its node before it works; defaults to `0s`."+durationHint, false),
			"spot_interruptions_per_hour": num("How often a run on a spot flavor loses its node, per hour it runs; defaults to 0.", nonNegative),
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
