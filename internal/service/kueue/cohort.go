package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type cohortModel struct {
	framework.Metadata
	Parent            types.String         `tfsdk:"parent"`
	ResourceGroups    []resourceGroupModel `tfsdk:"resource_group"`
	FairSharingWeight types.String         `tfsdk:"fair_sharing_weight"`
}

type cohort struct{}

var (
	_ framework.ConfigChecker       = cohort{}
	_ framework.UpstreamPathRenamer = cohort{}
	_ framework.UpstreamRulePointer = cohort{}
)

// NewCohortResource is mlplatform_cohort.
func NewCohortResource() resource.Resource {
	return framework.NewResource[cohortModel](cohort{})
}

func (cohort) Kind() kube.Kind    { return cohortKind }
func (cohort) TypeSuffix() string { return "cohort" }

func (cohort) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("Cohort")
	attrs["parent"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Name of the parent Cohort, making this Cohort a subtree of it; unset makes it a root. Needed for " +
			"`borrowing_limit` and `lending_limit`. A parent that does not exist acts as a cohort without limits; a cycle " +
			"makes Kueue disable every queue in it.",
		Validators: []validator.String{framework.DNSSubdomain()},
	}
	attrs["fair_sharing_weight"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Weight of this Cohort under fair sharing (only used when fair sharing is enabled in Kueue's " +
			"configuration), as a quantity such as `1` or `0.5`; Kueue's default is `1`. `0` or more than `1n`.",
		Validators: []validator.String{framework.Quantity()},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `Cohort` (kueue.x-k8s.io/v1beta2): ClusterQueues whose `cohort` names it borrow each " +
			"other's unused quota. A Cohort can add a shared pool of quota (`resource_group`) and limit what its subtree " +
			"borrows from and lends to its `parent`. Every check of Kueue's CRD and admission webhook is made at plan time.",
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			"resource_group": cohortQuota.resourceGroupBlock(),
			"timeouts":       framework.TimeoutsBlock(ctx),
		},
	}
}

// ValidateConfig makes the quota check Kueue reports on a resource group (quota_validators.go); the
// validate engine runs Kueue's others.
func (cohort) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var groups []resourceGroupModel
	if req.Config.GetAttribute(ctx, path.Root("resource_group"), &groups).HasError() {
		return
	}
	validateResourceCounts(groups, &resp.Diagnostics)
}

// UpstreamPaths names the attributes whose names are not the Cohort's field names.
func (cohort) UpstreamPaths(kube.Kind) map[string]string {
	return withQuotaPaths(map[string]string{"spec.parentName": "parent"})
}

// UpstreamPointers: see quotaPointers.
func (cohort) UpstreamPointers(kube.Kind) []framework.UpstreamPointer { return quotaPointers }

func (cohort) Expand(_ context.Context, m *cohortModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	groups, diags := expandResourceGroups(m.ResourceGroups)
	spec := kueueac.CohortSpec().WithResourceGroups(groups...)
	if !m.Parent.IsNull() {
		spec.WithParentName(kueuev1beta2.CohortReference(m.Parent.ValueString()))
	}
	if fs := expandFairSharing(m.FairSharingWeight, &diags); fs != nil {
		spec.WithFairSharing(fs)
	}
	return kueueac.Cohort(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (cohort) Flatten(_ context.Context, obj *unstructured.Unstructured, m *cohortModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var c kueuev1beta2.Cohort
	if !framework.Decode(obj, "Cohort", &c, &diags) {
		return diags
	}
	m.Parent = framework.OptionalString(string(c.Spec.ParentName))
	m.ResourceGroups = flattenResourceGroups(c.Spec.ResourceGroups, m.ResourceGroups)
	m.FairSharingWeight = flattenFairSharing(c.Spec.FairSharing, m.FairSharingWeight, importing)
	return diags
}
