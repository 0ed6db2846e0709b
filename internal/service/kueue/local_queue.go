package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type localQueueModel struct {
	framework.NamespacedMetadata
	ClusterQueue types.String `tfsdk:"cluster_queue"`
	StopPolicy   types.String `tfsdk:"stop_policy"`
}

type localQueue struct{}

// NewLocalQueueResource is mlplatform_local_queue.
func NewLocalQueueResource() resource.Resource {
	return framework.NewResource[localQueueModel](localQueue{})
}

func (localQueue) Kind() kube.Kind    { return localQueueKind }
func (localQueue) TypeSuffix() string { return "local_queue" }

func (localQueue) Schema(ctx context.Context) schema.Schema {
	attrs := framework.NamespacedMetadataAttributes("LocalQueue")
	attrs["cluster_queue"] = schema.StringAttribute{
		Required: true,
		MarkdownDescription: "Name of the ClusterQueue whose quota this queue's workloads are admitted against, e.g. " +
			"`mlplatform_cluster_queue.x.name`; that queue's `namespace_selector` must admit the namespace. Kueue forbids " +
			"changing it, so a change replaces the LocalQueue.",
		Validators:    []validator.String{framework.DNSSubdomain()},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attrs["stop_policy"] = enum("Anything but `None` stops admission from this queue: `Hold` lets admitted workloads "+
		"finish, `HoldAndDrain` evicts them.", stopPolicies, string(kueuev1beta2.None))
	return schema.Schema{
		MarkdownDescription: "A Kueue `LocalQueue` (kueue.x-k8s.io/v1beta2): the namespaced queue that ML engineers submit " +
			"jobs to (label `kueue.x-k8s.io/queue-name`), feeding one ClusterQueue. The namespace must exist: applying " +
			"into a missing namespace is an error that says so.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (localQueue) Expand(_ context.Context, m *localQueueModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	spec := kueueac.LocalQueueSpec().
		WithClusterQueue(kueuev1beta2.ClusterQueueReference(m.ClusterQueue.ValueString())).
		WithStopPolicy(kueuev1beta2.StopPolicy(m.StopPolicy.ValueString()))
	return kueueac.LocalQueue(meta.Name, meta.Namespace).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), nil
}

func (localQueue) Flatten(_ context.Context, obj *unstructured.Unstructured, m *localQueueModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var lq kueuev1beta2.LocalQueue
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &lq); err != nil {
		diags.AddError("Decoding LocalQueue "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
		return diags
	}
	m.Namespace = types.StringValue(lq.Namespace)
	m.ClusterQueue = framework.OptionalString(string(lq.Spec.ClusterQueue))
	m.StopPolicy = types.StringValue(string(kueuev1beta2.None))
	if lq.Spec.StopPolicy != nil {
		m.StopPolicy = types.StringValue(string(*lq.Spec.StopPolicy))
	}
	return diags
}
