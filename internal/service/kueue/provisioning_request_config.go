package kueue

import (
	"context"
	"math"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type provisioningRequestConfigModel struct {
	framework.Metadata
	ProvisioningClassName types.String               `tfsdk:"provisioning_class_name"`
	Parameters            types.Map                  `tfsdk:"parameters"`
	ManagedResources      types.List                 `tfsdk:"managed_resources"`
	RetryStrategy         *provisioningRetryModel    `tfsdk:"retry_strategy"`
	PodSetUpdates         *provisioningPodSetUpModel `tfsdk:"pod_set_updates"`
	PodSetMergePolicy     types.String               `tfsdk:"pod_set_merge_policy"`
}

type provisioningRetryModel struct {
	BackoffLimitCount  types.Int64 `tfsdk:"backoff_limit_count"`
	BackoffBaseSeconds types.Int64 `tfsdk:"backoff_base_seconds"`
	BackoffMaxSeconds  types.Int64 `tfsdk:"backoff_max_seconds"`
}

type provisioningPodSetUpModel struct {
	NodeSelector []provisioningNodeSelectorModel `tfsdk:"node_selector"`
}

type provisioningNodeSelectorModel struct {
	Key                              types.String `tfsdk:"key"`
	ValueFromProvisioningClassDetail types.String `tfsdk:"value_from_provisioning_class_detail"`
}

// The CRD's defaults of retryStrategy (kueue v0.19.2 provisioningrequestconfig_types.go).
const (
	defaultBackoffLimitCount  = 3
	defaultBackoffBaseSeconds = 60
	defaultBackoffMaxSeconds  = 1800
)

var podSetMergePolicies = []string{string(kueuev1beta2.IdenticalPodTemplates), string(kueuev1beta2.IdenticalWorkloadSchedulingRequirements)}

type provisioningRequestConfig struct{}

// NewProvisioningRequestConfigResource is mlplatform_provisioning_request_config.
func NewProvisioningRequestConfigResource() resource.Resource {
	return framework.NewResource[provisioningRequestConfigModel](provisioningRequestConfig{})
}

func (provisioningRequestConfig) Kind() kube.Kind    { return provisioningRequestConfigKind }
func (provisioningRequestConfig) TypeSuffix() string { return "provisioning_request_config" }

// int32Default is an optional int32 with the CRD's default.
func int32Default(desc string, def int64) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional: true, Computed: true, Default: int64default.StaticInt64(def),
		MarkdownDescription: desc,
		// The engine's error for a number beyond int32 names no field.
		Validators: []validator.Int64{int64validator.Between(math.MinInt32, math.MaxInt32)},
	}
}

func (provisioningRequestConfig) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("ProvisioningRequestConfig")
	attrs["provisioning_class_name"] = schema.StringAttribute{
		Required: true,
		MarkdownDescription: "The autoscaler's provisioning class for the requests, e.g. `check-capacity.autoscaling.x-k8s.io` " +
			"(Cluster Autoscaler: succeed only if the nodes can be had) or `queued-provisioning.gke.io` (GKE's Dynamic " +
			"Workload Scheduler: wait until they are, then bring them all at once). A DNS subdomain, at most 253 characters.",
	}
	attrs["parameters"] = schema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Further parameters the provisioning class takes, passed on in each ProvisioningRequest. At most " +
			"100, each value at most 255 characters. Keys other tools add are left alone.",
	}
	attrs["managed_resources"] = schema.ListAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Resources the autoscaler provisions, e.g. `[\"nvidia.com/gpu\"]`: a ProvisioningRequest holds only " +
			"the pod sets that request one of them, and a workload requesting none passes the check at once. Unset: all " +
			"resources. At most 100, unique.",
	}
	attrs["retry_strategy"] = schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "How a failed or expired ProvisioningRequest is retried: the workload is requeued after about " +
			"`backoff_base_seconds * 2^(n-1)` seconds (at most `backoff_max_seconds`), and deactivated after " +
			"`backoff_limit_count` retries. Unset: Kueue's defaults (3, 60, 1800).",
		Attributes: map[string]schema.Attribute{
			"backoff_limit_count": int32Default("Retries before the workload is deactivated; `0` switches retrying off. Defaults "+
				"to `3`.", defaultBackoffLimitCount),
			"backoff_base_seconds": int32Default("Base of the exponential backoff, in seconds. Defaults to `60`.", defaultBackoffBaseSeconds),
			"backoff_max_seconds":  int32Default("Longest backoff, in seconds. Defaults to `1800`.", defaultBackoffMaxSeconds),
		},
	}
	attrs["pod_set_updates"] = schema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: "Updates Kueue makes to the admitted workload's pods from what the autoscaler reports, to target the nodes it provisioned.",
		Attributes: map[string]schema.Attribute{
			"node_selector": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Node selector entries to add, at most 8 with unique keys.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true,
						MarkdownDescription: "The node label key, e.g. `cloud.google.com/gke-nodepool`."},
					"value_from_provisioning_class_detail": schema.StringAttribute{Required: true,
						MarkdownDescription: "The key of the ProvisioningRequest's `status.provisioningClassDetails` whose value is the label's."},
				}},
			},
		},
	}
	attrs["pod_set_merge_policy"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Which pod sets are merged before they are passed to the autoscaler: `IdenticalPodTemplates` merges " +
			"identical pod templates only, `IdenticalWorkloadSchedulingRequirements` those whose scheduling requirements are " +
			"identical. " + oneOf(podSetMergePolicies) + "; unset: none are merged.",
		Validators: []validator.String{stringvalidator.OneOf(podSetMergePolicies...)},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `ProvisioningRequestConfig` (kueue.x-k8s.io/v1beta2): the parameters of Kueue's " +
			"ProvisioningRequest admission check, named by an `mlplatform_admission_check`'s `parameters`. Every check " +
			"of Kueue's CRD is made at plan time (Kueue v0.19 has no webhook for it).\n\n" + provisioningNeedsClusterAutoscaler,
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (provisioningRequestConfig) Expand(ctx context.Context, m *provisioningRequestConfigModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := kueueac.ProvisioningRequestConfigSpec().WithProvisioningClassName(m.ProvisioningClassName.ValueString())
	if params := framework.StringMap(ctx, m.Parameters, &diags); params != nil {
		p := map[string]kueuev1beta2.Parameter{}
		for k, v := range params {
			p[k] = kueuev1beta2.Parameter(v)
		}
		spec.WithParameters(p)
	}
	var resources []string
	diags.Append(m.ManagedResources.ElementsAs(ctx, &resources, false)...)
	for _, r := range resources {
		spec.WithManagedResources(corev1.ResourceName(r))
	}
	if r := m.RetryStrategy; r != nil {
		spec.WithRetryStrategy(kueueac.ProvisioningRequestRetryStrategy().
			WithBackoffLimitCount(int32(r.BackoffLimitCount.ValueInt64())).
			WithBackoffBaseSeconds(int32(r.BackoffBaseSeconds.ValueInt64())).
			WithBackoffMaxSeconds(int32(r.BackoffMaxSeconds.ValueInt64())))
	}
	if u := m.PodSetUpdates; u != nil {
		ac := kueueac.ProvisioningRequestPodSetUpdates()
		for _, s := range u.NodeSelector {
			ac.WithNodeSelector(kueueac.ProvisioningRequestPodSetUpdatesNodeSelector().
				WithKey(s.Key.ValueString()).WithValueFromProvisioningClassDetail(s.ValueFromProvisioningClassDetail.ValueString()))
		}
		spec.WithPodSetUpdates(ac)
	}
	if !m.PodSetMergePolicy.IsNull() {
		spec.WithPodSetMergePolicy(kueuev1beta2.ProvisioningRequestConfigPodSetMergePolicy(m.PodSetMergePolicy.ValueString()))
	}
	return kueueac.ProvisioningRequestConfig(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (provisioningRequestConfig) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *provisioningRequestConfigModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var prc kueuev1beta2.ProvisioningRequestConfig
	if !framework.Decode(obj, "ProvisioningRequestConfig", &prc, &diags) {
		return diags
	}
	s := prc.Spec
	m.ProvisioningClassName = types.StringValue(s.ProvisioningClassName)
	params := map[string]string{}
	for k, v := range s.Parameters {
		params[k] = string(v)
	}
	m.Parameters = framework.ManagedMap(ctx, params, m.Parameters, importing, &diags)
	resources := make([]string, len(s.ManagedResources))
	for i, r := range s.ManagedResources {
		resources[i] = string(r)
	}
	m.ManagedResources = stringList(resources, m.ManagedResources)
	m.RetryStrategy = flattenRetryStrategy(s.RetryStrategy, m.RetryStrategy, importing)
	m.PodSetUpdates = flattenPodSetUpdates(s.PodSetUpdates, m.PodSetUpdates)
	m.PodSetMergePolicy = types.StringNull()
	if s.PodSetMergePolicy != nil {
		m.PodSetMergePolicy = types.StringValue(string(*s.PodSetMergePolicy))
	}
	return diags
}

// flattenRetryStrategy reads retryStrategy back. Kueue's CRD defaults it, so a configuration
// without it reads null, as does an import of the defaults.
func flattenRetryStrategy(live *kueuev1beta2.ProvisioningRequestRetryStrategy, prior *provisioningRetryModel, importing bool) *provisioningRetryModel {
	if live == nil {
		return nil
	}
	int32Or := func(v *int32, def int64) types.Int64 {
		if v == nil {
			return types.Int64Value(def)
		}
		return types.Int64Value(int64(*v))
	}
	out := &provisioningRetryModel{
		BackoffLimitCount:  int32Or(live.BackoffLimitCount, defaultBackoffLimitCount),
		BackoffBaseSeconds: int32Or(live.BackoffBaseSeconds, defaultBackoffBaseSeconds),
		BackoffMaxSeconds:  int32Or(live.BackoffMaxSeconds, defaultBackoffMaxSeconds),
	}
	isDefault := *out == provisioningRetryModel{
		BackoffLimitCount:  types.Int64Value(defaultBackoffLimitCount),
		BackoffBaseSeconds: types.Int64Value(defaultBackoffBaseSeconds),
		BackoffMaxSeconds:  types.Int64Value(defaultBackoffMaxSeconds),
	}
	if prior == nil && (!importing || isDefault) {
		return nil
	}
	return out
}

func flattenPodSetUpdates(live *kueuev1beta2.ProvisioningRequestPodSetUpdates, prior *provisioningPodSetUpModel) *provisioningPodSetUpModel {
	if live == nil {
		return nil
	}
	out := &provisioningPodSetUpModel{}
	if len(live.NodeSelector) == 0 && prior != nil && prior.NodeSelector != nil {
		out.NodeSelector = []provisioningNodeSelectorModel{}
	}
	for _, s := range live.NodeSelector {
		out.NodeSelector = append(out.NodeSelector, provisioningNodeSelectorModel{
			Key: types.StringValue(s.Key), ValueFromProvisioningClassDetail: types.StringValue(s.ValueFromProvisioningClassDetail),
		})
	}
	return out
}
