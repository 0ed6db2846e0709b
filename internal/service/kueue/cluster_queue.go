package kueue

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// mlplatform_cluster_queue: the resource is split into its cluster_queue_*.go files, by the
// vocabulary of ../README.md.

type clusterQueueModel struct {
	framework.Metadata
	Cohort                  types.String                  `tfsdk:"cohort"`
	NamespaceSelector       *labelSelectorModel           `tfsdk:"namespace_selector"`
	QueueingStrategy        types.String                  `tfsdk:"queueing_strategy"`
	ResourceGroups          []resourceGroupModel          `tfsdk:"resource_group"`
	Preemption              *preemptionModel              `tfsdk:"preemption"`
	FlavorFungibility       *flavorFungibilityModel       `tfsdk:"flavor_fungibility"`
	FairSharingWeight       types.String                  `tfsdk:"fair_sharing_weight"`
	AdmissionMode           types.String                  `tfsdk:"admission_mode"`
	AdmissionChecksStrategy []admissionCheckStrategyModel `tfsdk:"admission_checks_strategy"`
	ConcurrentAdmission     *concurrentAdmissionModel     `tfsdk:"concurrent_admission_policy"`
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

type concurrentAdmissionModel struct {
	Migration migrationModel `tfsdk:"migration"`
}

type migrationModel struct {
	Mode        types.String              `tfsdk:"mode"`
	Constraints *migrationConstraintModel `tfsdk:"constraints"`
}

type migrationConstraintModel struct {
	LastAcceptableFlavorName types.String `tfsdk:"last_acceptable_flavor_name"`
}

type clusterQueue struct{}

var (
	_ framework.ReadyWaiter[clusterQueueModel]     = clusterQueue{}
	_ framework.PreApplyChecker[clusterQueueModel] = clusterQueue{}
	_ framework.PlanModifier                       = clusterQueue{}
	_ framework.DeleteExplainer[clusterQueueModel] = clusterQueue{}
	_ framework.ConfigChecker                      = clusterQueue{}
	_ framework.UpstreamPathRenamer                = clusterQueue{}
	_ framework.UpstreamRulePointer                = clusterQueue{}
)

// NewClusterQueueResource is mlplatform_cluster_queue.
func NewClusterQueueResource() resource.Resource {
	return framework.NewResource[clusterQueueModel](clusterQueue{})
}

func (clusterQueue) Kind() kube.Kind    { return clusterQueueKind }
func (clusterQueue) TypeSuffix() string { return "cluster_queue" }

// UpstreamPaths names the attributes whose names are not the ClusterQueue's field names: blocks
// are singular, and a few fields are flattened.
func (clusterQueue) UpstreamPaths(kube.Kind) map[string]string {
	return withQuotaPaths(map[string]string{
		"spec.cohortName":                              "cohort",
		"spec.admissionScope.admissionMode":            "admission_mode",
		"spec.admissionChecksStrategy.admissionChecks": "admission_checks_strategy",
	})
}

// UpstreamPointers names the attribute to change for Kueue's rules reported on a parent field:
// the CEL rules of spec.preemption and spec.flavorFungibility (checked again, with the same
// words, by the webhook), and the duplicate keys of the CRD's map lists.
func (clusterQueue) UpstreamPointers(kube.Kind) []framework.UpstreamPointer {
	return append(slices.Clone(quotaPointers),
		framework.UpstreamPointer{Field: "spec.preemption", Message: "borrowWithinCohort.Policy!=Never",
			To: "preemption.borrow_within_cohort.policy"},
		framework.UpstreamPointer{Field: "spec.flavorFungibility", Message: "preference can only be set",
			To: "flavor_fungibility.preference"},
		framework.UpstreamPointer{Field: "spec.admissionChecksStrategy.admissionChecks[*]", Message: "Duplicate value",
			To: "admission_checks_strategy[*].name"},
		framework.UpstreamPointer{Field: "spec.admissionChecksStrategy.admissionChecks[*].onFlavors[*]", Message: "Duplicate value",
			To: "admission_checks_strategy[*].on_flavors"},
	)
}
