package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type resourceFlavorModel struct {
	framework.Metadata
	NodeLabels   types.Map                   `tfsdk:"node_labels"`
	NodeTaints   []framework.TaintModel      `tfsdk:"node_taints"`
	Tolerations  []framework.TolerationModel `tfsdk:"tolerations"`
	TopologyName types.String                `tfsdk:"topology_name"`
}

type resourceFlavor struct{}

// The cycle finds these hooks by type assertion; these make a signature mismatch a compile error.
var (
	_ framework.UpstreamRulePointer                  = resourceFlavor{}
	_ framework.PreApplyChecker[resourceFlavorModel] = resourceFlavor{}
	_ framework.PlanModifier                         = resourceFlavor{}
	_ framework.DeleteExplainer[resourceFlavorModel] = resourceFlavor{}
)

// NewResourceFlavorResource is mlplatform_resource_flavor.
func NewResourceFlavorResource() resource.Resource {
	return framework.NewResource[resourceFlavorModel](resourceFlavor{})
}

func (resourceFlavor) Kind() kube.Kind    { return resourceFlavorKind }
func (resourceFlavor) TypeSuffix() string { return "resource_flavor" }

// UpstreamPointers names topology_name for the CRD's CEL rule on spec that needs node labels with a
// topology.
func (resourceFlavor) UpstreamPointers(kube.Kind) []framework.UpstreamPointer {
	return []framework.UpstreamPointer{{Field: "spec", Message: "at least one nodeLabel is required when topology is set", To: "topology_name"}}
}

func (resourceFlavor) Schema(ctx context.Context) schema.Schema {
	// Kueue's CEL rules make these immutable once topologyName is set.
	immutableWithTopology := "Kueue forbids changing it while `topology_name` is set, so a change then replaces the flavor."
	attrs := framework.MetadataAttributes("ResourceFlavor")
	attrs["node_labels"] = schema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Labels of the nodes this flavor stands for; Kueue adds them as node affinity to admitted " +
			"pods. At most 8. `mlplatform.io/gpu`, the GPU node pools' label, must be a value a pool writes (the model's " +
			"canonical name, lower case, e.g. `a100-sxm4-80gb`): runs admitted on a flavor no node carries stay Pending. " +
			"At plan, when a ClusterQueue of the same configuration gives the flavor GPU quota, labels that select GPU nodes " +
			"(`mlplatform.io/gpu`, `nvidia.com/gpu.product`, `nvidia.com/mig.config`, ...) but that every GPU node pool of " +
			"the configuration contradicts are a warning (on whichever of the flavor, the queue and the pool Terraform plans " +
			"last): take them from a pool's `supplies`, which also plans the flavor after the pool. Pools of another " +
			"configuration, or nodes from elsewhere, are not seen at plan. " +
			immutableWithTopology,
		Validators:    framework.LabelMapValidators(gpuLabelValidator{}),
		PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplaceIf(replaceMapIfTopology, immutableWithTopology, immutableWithTopology)},
	}
	attrs["node_taints"] = schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "Taints of the nodes this flavor stands for: a workload is admitted to the flavor only " +
			"if its pods tolerate them. At most 8, unique by key and effect.",
		NestedObject: schema.NestedAttributeObject{Attributes: framework.TaintAttributes()},
		Validators:   []validator.List{framework.TaintsUnique()},
	}
	attrs["tolerations"] = schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "Tolerations Kueue adds to the pods of workloads admitted to this flavor. At most 8. " +
			immutableWithTopology,
		NestedObject: schema.NestedAttributeObject{
			Attributes: framework.TolerationAttributes(),
			Validators: []validator.Object{framework.TolerationRules()},
		},
		PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplaceIf(replaceListIfTopology, immutableWithTopology, immutableWithTopology)},
	}
	attrs["topology_name"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Name of the Kueue `Topology` for topology-aware scheduling. Needs at least one " +
			"`node_labels` entry. It can be set on an existing flavor; once set, Kueue forbids changing it, so a change replaces the flavor.",
		Validators:    []validator.String{framework.DNSSubdomain()},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(replaceStringIfTopology, immutableWithTopology, immutableWithTopology)},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `ResourceFlavor` (kueue.x-k8s.io/v1beta2): one kind of node (GPU model, capacity " +
			"type, MIG slicing) that ClusterQueues give quota for. Every check Kueue's CRD and admission webhook make " +
			"is made at plan time.\n\n" +
			"Kueue keeps a flavor while a ClusterQueue names it, so the provider does not delete a flavor that a queue " +
			"still names: the error names the queues. When a flavor is renamed while queues name it, set " +
			"`lifecycle { create_before_destroy = true }` on the flavor and reference it from the queues " +
			"(`name = mlplatform_resource_flavor.x.name`): Terraform then creates the new flavor, moves the queues to it, " +
			"and deletes the old one last. A replacement that keeps the name (a new `topology_name`, or `-replace`) " +
			"cannot create first, as the name is the old flavor's until it is gone (the apply refuses, deleting " +
			"nothing): give the flavor a new name in the same change, or take it out of the queues first.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

// hasTopology reports whether the flavor in state has a topology name; Kueue then refuses
// in-place changes to node labels, tolerations and the topology name.
func hasTopology(ctx context.Context, state tfsdk.State) bool {
	var v types.String
	if state.Raw.IsNull() || state.GetAttribute(ctx, path.Root("topology_name"), &v).HasError() {
		return false
	}
	return !v.IsNull()
}

func replaceMapIfTopology(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = hasTopology(ctx, req.State)
}

func replaceListIfTopology(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = hasTopology(ctx, req.State)
}

func replaceStringIfTopology(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = hasTopology(ctx, req.State)
}

func (resourceFlavor) Expand(ctx context.Context, m *resourceFlavorModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := kueueac.ResourceFlavorSpec().
		WithNodeTaints(framework.ExpandTaints(m.NodeTaints)...).
		WithTolerations(framework.ExpandTolerations(m.Tolerations)...)
	if !m.NodeLabels.IsNull() {
		labels := map[string]string{}
		diags.Append(m.NodeLabels.ElementsAs(ctx, &labels, false)...)
		spec.WithNodeLabels(labels)
	}
	if !m.TopologyName.IsNull() {
		spec.WithTopologyName(kueuev1beta2.TopologyReference(m.TopologyName.ValueString()))
	}
	return kueueac.ResourceFlavor(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (resourceFlavor) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *resourceFlavorModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var rf kueuev1beta2.ResourceFlavor
	if !framework.Decode(obj, "ResourceFlavor", &rf, &diags) {
		return diags
	}
	// nodeLabels is an atomic map in the CRD: whoever applies it owns all of it, so every live
	// entry is Terraform's and any added elsewhere is drift that the next apply removes.
	m.NodeLabels = framework.AtomicMap(rf.Spec.NodeLabels, m.NodeLabels)
	m.NodeTaints = framework.FlattenTaints(rf.Spec.NodeTaints, m.NodeTaints)
	m.Tolerations = framework.FlattenTolerations(rf.Spec.Tolerations, m.Tolerations)
	m.TopologyName = types.StringNull()
	if rf.Spec.TopologyName != nil {
		m.TopologyName = types.StringValue(string(*rf.Spec.TopologyName))
	}
	return diags
}
