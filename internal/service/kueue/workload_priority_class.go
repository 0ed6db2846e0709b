package kueue

import (
	"context"
	"math"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

type workloadPriorityClassModel struct {
	framework.Metadata
	Value       types.Int64  `tfsdk:"value"`
	Description types.String `tfsdk:"description"`
}

type workloadPriorityClass struct{}

// NewWorkloadPriorityClassResource is mlplatform_workload_priority_class.
func NewWorkloadPriorityClassResource() resource.Resource {
	return framework.NewResource[workloadPriorityClassModel](workloadPriorityClass{})
}

func (workloadPriorityClass) Kind() kube.Kind    { return workloadPriorityClassKind }
func (workloadPriorityClass) TypeSuffix() string { return "workload_priority_class" }

func (workloadPriorityClass) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("WorkloadPriorityClass")
	attrs["value"] = schema.Int64Attribute{
		Required: true,
		MarkdownDescription: "The priority workloads of this class get: higher is admitted first and may preempt lower, " +
			"as the ClusterQueue's `preemption` allows. A 32-bit integer. A change applies to workloads created afterwards only.",
		// CRD: value is an int32. Kept: the validate engine's error for a number beyond int32 names
		// no field.
		Validators: []validator.Int64{int64validator.Between(math.MinInt32, math.MaxInt32)},
	}
	attrs["description"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "When to use this class, for the people submitting jobs. At most 2048 characters.",
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `WorkloadPriorityClass` (kueue.x-k8s.io/v1beta2): a priority for workloads, chosen " +
			"with the label `kueue.x-k8s.io/priority-class` on a job, independent of pod priority.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (workloadPriorityClass) Expand(_ context.Context, m *workloadPriorityClassModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	ac := kueueac.WorkloadPriorityClass(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).
		WithValue(int32(m.Value.ValueInt64()))
	if !m.Description.IsNull() {
		ac.WithDescription(m.Description.ValueString())
	}
	return ac, nil
}

func (workloadPriorityClass) Flatten(_ context.Context, obj *unstructured.Unstructured, m *workloadPriorityClassModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var wpc kueuev1beta2.WorkloadPriorityClass
	if !framework.Decode(obj, "WorkloadPriorityClass", &wpc, &diags) {
		return diags
	}
	m.Value = types.Int64Value(int64(wpc.Value))
	m.Description = framework.OptionalString(wpc.Description)
	if wpc.Description == "" && !m.Description.IsNull() && m.Description.ValueString() == "" {
		m.Description = types.StringValue("") // configured as "", which the API omits
	}
	return diags
}
