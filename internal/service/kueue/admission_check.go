package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type admissionCheckModel struct {
	framework.Metadata
	ControllerName types.String               `tfsdk:"controller_name"`
	Parameters     *admissionCheckParamsModel `tfsdk:"parameters"`
}

type admissionCheckParamsModel struct {
	APIGroup types.String `tfsdk:"api_group"`
	Kind     types.String `tfsdk:"kind"`
	Name     types.String `tfsdk:"name"`
}

type admissionCheck struct{}

// The cycle finds these hooks by type assertion; this makes a signature mismatch a compile error.
var _ framework.ConfigChecker = admissionCheck{}

// NewAdmissionCheckResource is mlplatform_admission_check.
func NewAdmissionCheckResource() resource.Resource {
	return framework.NewResource[admissionCheckModel](admissionCheck{})
}

func (admissionCheck) Kind() kube.Kind    { return admissionCheckKind }
func (admissionCheck) TypeSuffix() string { return "admission_check" }

// provisioningNeedsClusterAutoscaler is said wherever a provisioning-request check can be set.
const provisioningNeedsClusterAutoscaler = "Kueue's ProvisioningRequest check (`" +
	kueuev1beta2.ProvisioningRequestControllerName + "`) asks Cluster Autoscaler for the nodes through a " +
	"`ProvisioningRequest` (autoscaling.x-k8s.io) and passes when it has them. **It needs Cluster Autoscaler (as GKE " +
	"runs it, e.g. for Dynamic Workload Scheduler's class `queued-provisioning.gke.io`) and does nothing with " +
	"Karpenter**: Karpenter serves no ProvisioningRequest, so on `mlplatform_gpu_node_pool` nodes the check never " +
	"passes and the workloads it guards are never admitted."

func (admissionCheck) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("AdmissionCheck")
	attrs["controller_name"] = schema.StringAttribute{
		Required: true,
		MarkdownDescription: "The controller that decides this check, e.g. `" + kueuev1beta2.ProvisioningRequestControllerName +
			"` or `kueue.x-k8s.io/multikueue`; not necessarily a Pod or Deployment name. 1 to 253 characters. Kueue " +
			"forbids changing it, so a change replaces the AdmissionCheck. " + provisioningNeedsClusterAutoscaler,
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attrs["parameters"] = schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "The object holding the check's parameters, for its controller to read; for the " +
			"ProvisioningRequest check an `mlplatform_provisioning_request_config` (`api_group = \"kueue.x-k8s.io\"`, " +
			"`kind = \"ProvisioningRequestConfig\"`). Kueue keeps the check inactive while it is missing.",
		Attributes: map[string]schema.Attribute{
			"api_group": schema.StringAttribute{Required: true,
				MarkdownDescription: "API group of the object, e.g. `kueue.x-k8s.io`. A DNS subdomain, at most 253 characters."},
			"kind": schema.StringAttribute{Required: true,
				MarkdownDescription: "Kind of the object, e.g. `ProvisioningRequestConfig`. At most 63 characters."},
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the object, e.g. `mlplatform_provisioning_request_config.x.name`. A DNS label."},
		},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `AdmissionCheck` (kueue.x-k8s.io/v1beta2): a condition, decided by its controller, " +
			"that a workload must pass besides quota before it starts. A ClusterQueue applies it through " +
			"`admission_checks_strategy`, to all its flavors or some. Kueue keeps a queue inactive while a check it names " +
			"is missing or inactive (its controller not running, or its parameters missing). Every check of Kueue's CRD is " +
			"made at plan time (Kueue v0.19 has no webhook for it).\n\n" + provisioningNeedsClusterAutoscaler,
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (admissionCheck) Expand(_ context.Context, m *admissionCheckModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	spec := kueueac.AdmissionCheckSpec().WithControllerName(m.ControllerName.ValueString())
	if p := m.Parameters; p != nil {
		spec.WithParameters(kueueac.AdmissionCheckParametersReference().
			WithAPIGroup(p.APIGroup.ValueString()).WithKind(p.Kind.ValueString()).WithName(p.Name.ValueString()))
	}
	return kueueac.AdmissionCheck(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), nil
}

func (admissionCheck) Flatten(_ context.Context, obj *unstructured.Unstructured, m *admissionCheckModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var ac kueuev1beta2.AdmissionCheck
	if !framework.Decode(obj, "AdmissionCheck", &ac, &diags) {
		return diags
	}
	m.ControllerName = types.StringValue(ac.Spec.ControllerName)
	m.Parameters = nil
	if p := ac.Spec.Parameters; p != nil {
		m.Parameters = &admissionCheckParamsModel{
			APIGroup: types.StringValue(p.APIGroup), Kind: types.StringValue(p.Kind), Name: types.StringValue(p.Name),
		}
	}
	return diags
}
