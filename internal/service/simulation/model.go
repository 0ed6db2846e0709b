// Package simulation is data.mlplatform_capacity_simulation: a day of the declared queues'
// jobs, decided by Kueue's own scheduler (internal/simulate), at plan.
package simulation

import "github.com/hashicorp/terraform-plugin-framework/types"

type model struct {
	Horizon         types.String           `tfsdk:"horizon"`
	Interval        types.String           `tfsdk:"interval"`
	Seed            types.Int64            `tfsdk:"seed"`
	MaxJobs         types.Int64            `tfsdk:"max_jobs"`
	FairSharing     types.Bool             `tfsdk:"fair_sharing"`
	WholeGPUs       types.Bool             `tfsdk:"whole_gpus"`
	Flavors         []flavorModel          `tfsdk:"flavors"`
	ClusterQueues   []clusterQueueModel    `tfsdk:"cluster_queues"`
	LocalQueues     []localQueueModel      `tfsdk:"local_queues"`
	PriorityClasses map[string]types.Int64 `tfsdk:"priority_classes"`
	Profiles        []profileModel         `tfsdk:"profiles"`

	Jobs             types.Int64                `tfsdk:"jobs"`
	SchedulingCycles types.Int64                `tfsdk:"scheduling_cycles"`
	Teams            map[string]teamResultModel `tfsdk:"teams"`
	FlavorUsage      []flavorUsageModel         `tfsdk:"flavor_usage"`
	Timeline         []stepModel                `tfsdk:"timeline"`
	Caveats          []types.String             `tfsdk:"caveats"`
}

type flavorModel struct {
	Name         types.String             `tfsdk:"name"`
	NodeLabels   map[string]types.String  `tfsdk:"node_labels"`
	PricePerHour map[string]types.Float64 `tfsdk:"price_per_hour"`
	UnitsPerGPU  map[string]types.Float64 `tfsdk:"units_per_gpu"`
}

type clusterQueueModel struct {
	Name             types.String        `tfsdk:"name"`
	Cohort           types.String        `tfsdk:"cohort"`
	QueueingStrategy types.String        `tfsdk:"queueing_strategy"`
	Preemption       *preemptionModel    `tfsdk:"preemption"`
	Flavors          []flavorQuotasModel `tfsdk:"flavors"`
}

type preemptionModel struct {
	WithinClusterQueue   types.String `tfsdk:"within_cluster_queue"`
	ReclaimWithinCohort  types.String `tfsdk:"reclaim_within_cohort"`
	BorrowWithinCohort   types.String `tfsdk:"borrow_within_cohort"`
	MaxPriorityThreshold types.Int64  `tfsdk:"max_priority_threshold"`
}

type flavorQuotasModel struct {
	Name      types.String          `tfsdk:"name"`
	Resources map[string]quotaModel `tfsdk:"resources"`
}

type quotaModel struct {
	NominalQuota   types.String `tfsdk:"nominal_quota"`
	BorrowingLimit types.String `tfsdk:"borrowing_limit"`
	LendingLimit   types.String `tfsdk:"lending_limit"`
}

type localQueueModel struct {
	Namespace    types.String `tfsdk:"namespace"`
	Name         types.String `tfsdk:"name"`
	ClusterQueue types.String `tfsdk:"cluster_queue"`
}

type profileModel struct {
	Team                     types.String             `tfsdk:"team"`
	Namespace                types.String             `tfsdk:"namespace"`
	LocalQueue               types.String             `tfsdk:"local_queue"`
	JobsPerDay               types.Float64            `tfsdk:"jobs_per_day"`
	DailyShape               []types.Float64          `tfsdk:"daily_shape"`
	Arrivals                 []types.String           `tfsdk:"arrivals"`
	Shapes                   []shapeModel             `tfsdk:"shapes"`
	Duration                 durationModel            `tfsdk:"duration"`
	Priorities               map[string]types.Float64 `tfsdk:"priorities"`
	Checkpoint               types.Bool               `tfsdk:"checkpoint"`
	NodeStart                types.String             `tfsdk:"node_start"`
	SpotInterruptionsPerHour types.Float64            `tfsdk:"spot_interruptions_per_hour"`
}

type shapeModel struct {
	Weight       types.Float64 `tfsdk:"weight"`
	GPUType      types.String  `tfsdk:"gpu_type"`
	MIGProfile   types.String  `tfsdk:"mig_profile"`
	GPUs         types.Int64   `tfsdk:"gpus"`
	Pods         types.Int64   `tfsdk:"pods"`
	CPU          types.String  `tfsdk:"cpu"`
	Memory       types.String  `tfsdk:"memory"`
	CapacityType types.String  `tfsdk:"capacity_type"`
}

type durationModel struct {
	Distribution types.String `tfsdk:"distribution"`
	Mean         types.String `tfsdk:"mean"`
	Min          types.String `tfsdk:"min"`
	Max          types.String `tfsdk:"max"`
	P95          types.String `tfsdk:"p95"`
}

type teamResultModel struct {
	ClusterQueue            types.String           `tfsdk:"cluster_queue"`
	Submitted               types.Int64            `tfsdk:"submitted"`
	Admitted                types.Int64            `tfsdk:"admitted"`
	Finished                types.Int64            `tfsdk:"finished"`
	Waiting                 types.Int64            `tfsdk:"waiting"`
	Running                 types.Int64            `tfsdk:"running"`
	GaveUp                  types.Int64            `tfsdk:"gave_up"`
	WaitP50Minutes          types.Float64          `tfsdk:"wait_p50_minutes"`
	WaitP95Minutes          types.Float64          `tfsdk:"wait_p95_minutes"`
	WaitMaxMinutes          types.Float64          `tfsdk:"wait_max_minutes"`
	Preemptions             map[string]types.Int64 `tfsdk:"preemptions"`
	MostPreemptionsOfOneJob types.Int64            `tfsdk:"most_preemptions_of_one_job"`
	Interruptions           types.Int64            `tfsdk:"interruptions"`
	GPUHours                types.Float64          `tfsdk:"gpu_hours"`
	BorrowedGPUHours        types.Float64          `tfsdk:"borrowed_gpu_hours"`
	LentGPUHours            types.Float64          `tfsdk:"lent_gpu_hours"`
	LostGPUHours            types.Float64          `tfsdk:"lost_gpu_hours"`
	Cost                    types.Float64          `tfsdk:"cost"`
}

type flavorUsageModel struct {
	Flavor      types.String  `tfsdk:"flavor"`
	Resource    types.String  `tfsdk:"resource"`
	Quota       types.Float64 `tfsdk:"quota"`
	Peak        types.Float64 `tfsdk:"peak"`
	UnitHours   types.Float64 `tfsdk:"unit_hours"`
	Utilisation types.Float64 `tfsdk:"utilisation"`
}

type stepModel struct {
	StartMinutes types.Int64              `tfsdk:"start_minutes"`
	GPUsInUse    map[string]types.Float64 `tfsdk:"gpus_in_use"`
	Pending      map[string]types.Int64   `tfsdk:"pending"`
}
