package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type topologyModel struct {
	framework.Metadata
	Levels types.List `tfsdk:"levels"`
}

type topology struct{}

var (
	_ framework.DeleteExplainer[topologyModel] = topology{}
	_ framework.UpstreamPathRenamer            = topology{}
)

// NewTopologyResource is mlplatform_topology.
func NewTopologyResource() resource.Resource {
	return framework.NewResource[topologyModel](topology{})
}

func (topology) Kind() kube.Kind    { return topologyKind }
func (topology) TypeSuffix() string { return "topology" }

// UpstreamPaths: `levels` holds each level's node label.
func (topology) UpstreamPaths(kube.Kind) map[string]string {
	return map[string]string{"spec.levels[*].nodeLabel": "levels[*]"}
}

func (topology) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("Topology")
	attrs["levels"] = schema.ListAttribute{
		Required:    true,
		ElementType: types.StringType,
		MarkdownDescription: "The node labels of the topology's levels, broadest first, e.g. `[\"topology.k8s.aws/network-node-layer-1\", " +
			"\"topology.k8s.aws/network-node-layer-2\", \"topology.k8s.aws/network-node-layer-3\", \"kubernetes.io/hostname\"]`. " +
			"1 to 16 unique label keys; `kubernetes.io/hostname` only as the last. Kueue forbids changing them, so a change " +
			"replaces the Topology.",
		// The CRD reports its hostname rule on spec.levels: kept to name the level. Uniqueness is
		// kept with it: a list that breaks both is refused at validate by the hostname rule, before
		// the validate engine runs, and would otherwise not be told that it repeats a level.
		Validators: []validator.List{
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(framework.QualifiedName()),
			hostnameLevelLast{},
		},
		PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `Topology` (kueue.x-k8s.io/v1beta2) for topology-aware scheduling: the levels of the " +
			"data centre's network, as node labels, so that Kueue places the pods of one workload close together (a " +
			"job asks with the pod annotation `kueue.x-k8s.io/podset-required-topology` or `-preferred-topology` naming a " +
			"level). A `mlplatform_resource_flavor` uses it through `topology_name`.\n\n" +
			"On EKS, nodes of the instance types EC2 reports a network topology for (p4d, p4de, p5, p5e, p5en, p6, trn1, " +
			"trn2 among others) carry `topology.k8s.aws/network-node-layer-1` (broadest) to `-3` (closest), and `-4` where " +
			"the topology has four layers; with `kubernetes.io/hostname` last, a job can ask for one node, or for nodes " +
			"under one network node (Amazon EKS User Guide, \"Place distributed AI/ML workloads with network topology " +
			"labels\"). `topology.kubernetes.io/zone` is a broader level still.\n\n" +
			"Kueue keeps a Topology while a ResourceFlavor names it, so the provider does not delete one that a flavor " +
			"still names: the error names the flavors. Since Kueue forbids changing `levels` and a flavor's " +
			"`topology_name`, give the flavors that use a topology `lifecycle { replace_triggered_by = " +
			"[mlplatform_topology.x] }`: a change of `levels` then replaces the topology and its flavors together.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

// hostnameLevelLast is the CRD's CEL rule "the kubernetes.io/hostname label can only be used at
// the lowest level of topology".
type hostnameLevelLast struct{}

func (hostnameLevelLast) Description(context.Context) string {
	return "kubernetes.io/hostname only as the last level"
}

func (v hostnameLevelLast) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (hostnameLevelLast) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	elems := req.ConfigValue.Elements()
	for i, e := range elems {
		if s, ok := e.(types.String); ok && s.ValueString() == corev1.LabelHostname && i != len(elems)-1 {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Invalid topology level",
				fmt.Sprintf("%s can only be the last (lowest) level of a topology: it names a single node", corev1.LabelHostname))
		}
	}
}

func (topology) Expand(ctx context.Context, m *topologyModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	var labels []string
	diags.Append(m.Levels.ElementsAs(ctx, &labels, false)...)
	spec := kueueac.TopologySpec()
	for _, l := range labels {
		spec.WithLevels(kueueac.TopologyLevel().WithNodeLabel(l))
	}
	return kueueac.Topology(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

func (topology) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *topologyModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var t kueuev1beta2.Topology
	if !framework.Decode(obj, "Topology", &t, &diags) {
		return diags
	}
	labels := make([]string, len(t.Spec.Levels))
	for i, l := range t.Spec.Levels {
		labels[i] = l.NodeLabel
	}
	m.Levels, diags = types.ListValueFrom(ctx, types.StringType, labels)
	return diags
}

// DeleteHolders names the ResourceFlavors that name the topology: Kueue keeps its resource-in-use
// finalizer on a Topology until none does.
func (topology) DeleteHolders(ctx context.Context, c *kube.Client, m *topologyModel) (framework.DeleteHolders, error) {
	name := m.Name.ValueString()
	h := framework.DeleteHolders{
		Reason: fmt.Sprintf("Kueue keeps the finalizer %s on a Topology while a ResourceFlavor names it in topology_name",
			kueuev1beta2.ResourceInUseFinalizerName),
		Remedy: "Destroy those flavors first (Kueue forbids removing or changing their topology_name). To replace the " +
			"topology (a change of `levels`), reference it from the flavors as `mlplatform_topology.x.name` with " +
			"`lifecycle { replace_triggered_by = [mlplatform_topology.x] }`, so that they are replaced with it.",
	}
	list, err := c.List(ctx, resourceFlavorKind, "", metav1.ListOptions{})
	if err != nil {
		return h, err
	}
	for _, item := range list.Items {
		var rf kueuev1beta2.ResourceFlavor
		if runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &rf) != nil {
			continue
		}
		if rf.Spec.TopologyName != nil && string(*rf.Spec.TopologyName) == name {
			h.Add("ResourceFlavor "+rf.Name, rf.DeletionTimestamp)
		}
	}
	return h, nil
}
