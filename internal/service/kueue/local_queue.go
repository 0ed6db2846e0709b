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
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type localQueueModel struct {
	framework.NamespacedMetadata
	ClusterQueue types.String `tfsdk:"cluster_queue"`
	StopPolicy   types.String `tfsdk:"stop_policy"`
	// FairSharingWeight is the LocalQueue's weight under admission fair sharing.
	FairSharingWeight types.String `tfsdk:"fair_sharing_weight"`
}

type localQueue struct{}

// The cycle finds these hooks by type assertion; this makes a signature mismatch a compile error.
var _ framework.PlanModifier = localQueue{}

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
	attrs["fair_sharing_weight"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Weight of this queue under admission fair sharing (used when Kueue's configuration enables " +
			"`admissionFairSharing` and the ClusterQueue's `admission_mode` is `UsageBasedAdmissionFairSharing`): its usage " +
			"is divided by the weight, so a queue of weight `2` may use twice as much before others go first. A quantity " +
			"such as `1` or `0.5`; Kueue's default is `1`. `0` or more than `1n`.",
		Validators: fairSharingWeight(),
	}
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
	var diags diag.Diagnostics
	if fs := expandFairSharing(m.FairSharingWeight, &diags); fs != nil {
		spec.WithFairSharing(fs)
	}
	return kueueac.LocalQueue(meta.Name, meta.Namespace).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (localQueue) Flatten(_ context.Context, obj *unstructured.Unstructured, m *localQueueModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var lq kueuev1beta2.LocalQueue
	if !framework.Decode(obj, "LocalQueue", &lq, &diags) {
		return diags
	}
	m.Namespace = types.StringValue(lq.Namespace)
	m.ClusterQueue = framework.OptionalString(string(lq.Spec.ClusterQueue))
	m.StopPolicy = types.StringValue(string(kueuev1beta2.None))
	if lq.Spec.StopPolicy != nil {
		m.StopPolicy = types.StringValue(string(*lq.Spec.StopPolicy))
	}
	m.FairSharingWeight = flattenFairSharing(lq.Spec.FairSharing, m.FairSharingWeight, importing)
	return diags
}
