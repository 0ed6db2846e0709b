package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// mlplatform_cluster_queue: the resource is split into cluster_queue_schema.go,
// cluster_queue_selector.go, cluster_queue_expand.go, cluster_queue_flatten.go,
// cluster_queue_validate.go and cluster_queue_wait.go.

type clusterQueueModel struct {
	framework.Metadata
	Cohort                  types.String                  `tfsdk:"cohort"`
	NamespaceSelector       *labelSelectorModel           `tfsdk:"namespace_selector"`
	QueueingStrategy        types.String                  `tfsdk:"queueing_strategy"`
	ResourceGroups          []resourceGroupModel          `tfsdk:"resource_group"`
	Preemption              *preemptionModel              `tfsdk:"preemption"`
	FlavorFungibility       *flavorFungibilityModel       `tfsdk:"flavor_fungibility"`
	FairSharingWeight       types.String                  `tfsdk:"fair_sharing_weight"`
	AdmissionChecksStrategy []admissionCheckStrategyModel `tfsdk:"admission_checks_strategy"`
	StopPolicy              types.String                  `tfsdk:"stop_policy"`
	WaitForActive           types.Bool                    `tfsdk:"wait_for_active"`
	Active                  types.Bool                    `tfsdk:"active"`
	PendingWorkloads        types.Int64                   `tfsdk:"pending_workloads"`
	AdmittedWorkloads       types.Int64                   `tfsdk:"admitted_workloads"`
}

type preemptionModel struct {
	ReclaimWithinCohort types.String             `tfsdk:"reclaim_within_cohort"`
	BorrowWithinCohort  *borrowWithinCohortModel `tfsdk:"borrow_within_cohort"`
	WithinClusterQueue  types.String             `tfsdk:"within_cluster_queue"`
}

type borrowWithinCohortModel struct {
	Policy               types.String `tfsdk:"policy"`
	MaxPriorityThreshold types.Int64  `tfsdk:"max_priority_threshold"`
}

type flavorFungibilityModel struct {
	WhenCanBorrow  types.String `tfsdk:"when_can_borrow"`
	WhenCanPreempt types.String `tfsdk:"when_can_preempt"`
	Preference     types.String `tfsdk:"preference"`
}

type admissionCheckStrategyModel struct {
	Name      types.String `tfsdk:"name"`
	OnFlavors types.List   `tfsdk:"on_flavors"`
}

type clusterQueue struct{}

var (
	_ resource.ResourceWithImportState    = &clusterQueueResource{}
	_ resource.ResourceWithModifyPlan     = &clusterQueueResource{}
	_ resource.ResourceWithValidateConfig = &clusterQueueResource{}

	_ framework.ReadyWaiter[clusterQueueModel] = clusterQueue{}
	_ framework.DeleteExplainer                = clusterQueue{}
	_ framework.ConfigChecker                  = clusterQueue{}
)

// clusterQueueResource is the shared cycle plus the status summary: after an apply (and the wait
// for Active) it records `active` and the workload counts from the live object, which the cycle
// itself leaves to Read.
type clusterQueueResource struct {
	framework.Resource[clusterQueueModel, *clusterQueueModel]
}

// NewClusterQueueResource is mlplatform_cluster_queue.
func NewClusterQueueResource() resource.Resource {
	return &clusterQueueResource{framework.Resource[clusterQueueModel, *clusterQueueModel]{Spec: clusterQueue{}}}
}

func (clusterQueue) Kind() kube.Kind    { return clusterQueueKind }
func (clusterQueue) TypeSuffix() string { return "cluster_queue" }

func (r *clusterQueueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.Resource.Create(ctx, req, resp)
	r.recordStatus(ctx, &resp.State, &resp.Diagnostics)
}

func (r *clusterQueueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.Resource.Update(ctx, req, resp)
	r.recordStatus(ctx, &resp.State, &resp.Diagnostics)
}

// recordStatus sets the computed status attributes, planned unknown, from one read of the queue.
// If the read fails they are recorded null, and the next refresh fills them.
func (r *clusterQueueResource) recordStatus(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
	if state.Raw.IsNull() {
		return // nothing was written
	}
	var m clusterQueueModel
	if d := state.Get(ctx, &m); d.HasError() {
		diags.Append(d...)
		return
	}
	m.Active, m.PendingWorkloads, m.AdmittedWorkloads = types.BoolNull(), types.Int64Null(), types.Int64Null()
	live, err := r.Provider.Client.Get(ctx, clusterQueueKind, "", m.Name.ValueString())
	if err == nil {
		var cq kueuev1beta2.ClusterQueue
		if err = runtime.DefaultUnstructuredConverter.FromUnstructured(live.Object, &cq); err == nil {
			flattenClusterQueueStatus(&cq, &m)
		}
	}
	if err != nil {
		diags.AddWarning("Reading the ClusterQueue's status", "The ClusterQueue "+m.Name.ValueString()+
			" was applied, but reading back its status failed; the next refresh records it: "+err.Error())
	}
	diags.Append(state.Set(ctx, &m)...)
}
