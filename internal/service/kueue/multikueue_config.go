package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type multiKueueConfigModel struct {
	framework.Metadata
	Clusters        types.List   `tfsdk:"clusters"`
	QuotaManagement types.String `tfsdk:"quota_management"`
}

type multiKueueConfig struct{}

// NewMultiKueueConfigResource is mlplatform_multikueue_config.
func NewMultiKueueConfigResource() resource.Resource {
	return framework.NewResource[multiKueueConfigModel](multiKueueConfig{})
}

func (multiKueueConfig) Kind() kube.Kind    { return multiKueueConfigKind }
func (multiKueueConfig) TypeSuffix() string { return "multikueue_config" }

var quotaManagementModes = []string{string(kueuev1beta2.QuotaManagementManual), string(kueuev1beta2.QuotaManagementAutomated)}

func (multiKueueConfig) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("MultiKueueConfig")
	attrs["clusters"] = schema.ListAttribute{
		ElementType: types.StringType,
		Required:    true,
		MarkdownDescription: "Names of the `mlplatform_multikueue_cluster`s (the worker clusters) that the workloads of the " +
			"ClusterQueues checked by this config are dispatched to, most preferred first: Kueue's incremental dispatcher " +
			"offers a workload to the workers in this order. 1 to 20, unique.",
	}
	attrs["quota_management"] = enum("How the manager cluster's ClusterQueue quotas are kept: `Manual` (you declare "+
		"them, e.g. as the sum of the workers') or `Automated` (Kueue derives them from the workers', only with its alpha "+
		"feature gate `MultiKueueManagerQuotaAutomation` on; Kueue's own default is `Manual`).",
		quotaManagementModes, string(kueuev1beta2.QuotaManagementManual))
	return schema.Schema{
		MarkdownDescription: "A Kueue `MultiKueueConfig` (kueue.x-k8s.io/v1beta2), on the manager cluster of a MultiKueue " +
			"setup: the worker clusters that the workloads of a ClusterQueue are dispatched to. An `mlplatform_admission_check` " +
			"with `controller_name = \"" + kueuev1beta2.MultiKueueControllerName + "\"` names it in its `parameters`, and a " +
			"ClusterQueue applies that check. Every check of Kueue's CRD is made at plan time.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (multiKueueConfig) Expand(ctx context.Context, m *multiKueueConfigModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	var clusters []string
	diags.Append(m.Clusters.ElementsAs(ctx, &clusters, false)...)
	spec := kueueac.MultiKueueConfigSpec().WithClusters(clusters...).
		WithQuotaManagement(kueuev1beta2.MultiKueueConfigQuotaManagementMode(m.QuotaManagement.ValueString()))
	return kueueac.MultiKueueConfig(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (multiKueueConfig) Flatten(_ context.Context, obj *unstructured.Unstructured, m *multiKueueConfigModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var c kueuev1beta2.MultiKueueConfig
	if !framework.Decode(obj, "MultiKueueConfig", &c, &diags) {
		return diags
	}
	m.Clusters = stringList(c.Spec.Clusters, m.Clusters)
	m.QuotaManagement = types.StringValue(string(kueuev1beta2.QuotaManagementManual))
	if q := c.Spec.QuotaManagement; q != nil {
		m.QuotaManagement = types.StringValue(string(*q))
	}
	return diags
}
