package karpenter

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Default weights: spot is tried first; on-demand takes what spot cannot get.
const (
	defaultReservedWeight = 30
	defaultSpotWeight     = 20
	defaultOnDemandWeight = 10
)

type gpuNodePoolModel struct {
	framework.Metadata
	NodeClass    types.String           `tfsdk:"node_class"`
	GPU          *gpuModel              `tfsdk:"gpu"`
	Spot         *spotModel             `tfsdk:"spot"`
	OnDemand     *capacityModel         `tfsdk:"on_demand"`
	Reserved     *capacityModel         `tfsdk:"reserved"`
	MIG          *migModel              `tfsdk:"mig"`
	TimeSlicing  *timeSlicingModel      `tfsdk:"time_slicing"`
	NodeLabels   types.Map              `tfsdk:"node_labels"`
	Taints       []framework.TaintModel `tfsdk:"taints"`
	Disruption   *disruptionModel       `tfsdk:"disruption"`
	ExpireAfter  types.String           `tfsdk:"expire_after"`
	GracePeriod  types.String           `tfsdk:"termination_grace_period"`
	EFA          types.Bool             `tfsdk:"efa"`
	Billing      types.Map              `tfsdk:"billing"`
	Supplies     types.Map              `tfsdk:"supplies"`
	WaitForReady types.Bool             `tfsdk:"wait_for_ready"`

	// NodeClassCopyInSync is computed by Read: see gpu_node_pool_copy_sync.go.
	NodeClassCopyInSync types.Bool `tfsdk:"node_class_copy_in_sync"`
}

type gpuModel struct {
	Model         types.String               `tfsdk:"model"`
	InstanceTypes types.List                 `tfsdk:"instance_types"`
	Requirements  *instanceRequirementsModel `tfsdk:"instance_requirements"`
	CountPerNode  types.Int64                `tfsdk:"count_per_node"`
	MinTypes      types.Int64                `tfsdk:"min_instance_types"`
}

type capacityModel struct {
	MaxGPUs      types.Int64   `tfsdk:"max_gpus"`
	Nodes        types.Int64   `tfsdk:"nodes"`
	Weight       types.Int64   `tfsdk:"weight"`
	PricePerHour types.Float64 `tfsdk:"price_per_hour"`
	MaxCPU       types.String  `tfsdk:"max_cpu"`
	MaxMemory    types.String  `tfsdk:"max_memory"`
}

type spotModel struct {
	capacityModel
	Discount types.Float64 `tfsdk:"discount"`
}

type migModel struct {
	Strategy types.String `tfsdk:"strategy"`
	Profiles types.Map    `tfsdk:"profiles"`
	Config   types.String `tfsdk:"config"`
	Parts    types.List   `tfsdk:"parts"`
	// ConfigName is computed: the node label the pool writes.
	ConfigName types.String `tfsdk:"config_name"`
}

type timeSlicingModel struct {
	Replicas types.Int64 `tfsdk:"replicas"`
}

type disruptionModel struct {
	ConsolidationPolicy types.String  `tfsdk:"consolidation_policy"`
	ConsolidateAfter    types.String  `tfsdk:"consolidate_after"`
	Budgets             []budgetModel `tfsdk:"budgets"`
}

type budgetModel struct {
	Nodes    types.String `tfsdk:"nodes"`
	Schedule types.String `tfsdk:"schedule"`
	Duration types.String `tfsdk:"duration"`
}

type gpuNodePool struct{}

// The cycle finds these hooks by type assertion; these make a signature mismatch a compile error.
var (
	_ framework.ReadyWaiter[gpuNodePoolModel] = gpuNodePool{}
	_ framework.PlanModifier                  = gpuNodePool{}
	_ framework.ConfigChecker                 = gpuNodePool{}
	_ framework.ConfigValidatorsProvider      = gpuNodePool{}

	_ framework.ClusterReadingExpander[gpuNodePoolModel] = gpuNodePool{}
	_ framework.PlannedRefs[gpuNodePoolModel]            = gpuNodePool{}
	_ framework.UpstreamPathRenamer                      = gpuNodePool{}
)

// UpstreamPaths names the attributes that a pool's NodePools take into their node template (what
// else a pool derives, from several attributes, is named by the NodePool's own path).
func (gpuNodePool) UpstreamPaths(k kube.Kind) map[string]string {
	if k != capacity.NodePoolKind {
		return nil
	}
	return map[string]string{
		"spec.template.metadata.labels":             "node_labels",
		"spec.template.spec.taints":                 "taints",
		"spec.template.spec.expireAfter":            "expire_after",
		"spec.template.spec.terminationGracePeriod": "termination_grace_period",
	}
}

// ExpandReadsCluster is true for a pool with billing: Expand copies its node class from the
// cluster, so its objects are checked against their CRDs at apply, not at plan.
func (gpuNodePool) ExpandReadsCluster(m *gpuNodePoolModel) bool {
	return m.Billing.IsUnknown() || len(m.Billing.Elements()) > 0
}

// NewGPUNodePoolResource is mlplatform_gpu_node_pool.
func NewGPUNodePoolResource() resource.Resource {
	return framework.NewMultiResource[gpuNodePoolModel](gpuNodePool{})
}

func (gpuNodePool) TypeSuffix() string { return gpuNodePoolTypeSuffix }

// gpuNodePoolTypeSuffix is also the prefix of the owner mark on the objects a pool writes.
const gpuNodePoolTypeSuffix = "gpu_node_pool"

func (gpuNodePool) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.AtLeastOneOf(path.MatchRoot("spot"), path.MatchRoot("on_demand"), path.MatchRoot("reserved")),
		resourcevalidator.Conflicting(path.MatchRoot("mig"), path.MatchRoot("time_slicing")),
	}
}

// staticChanges reports whether a capacity type turns static or dynamic (Karpenter's CEL rule
// "Cannot transition NodePool between static and dynamic provisioning modes").
func staticChanges(_ context.Context, req planmodifier.Int64Request, resp *int64planmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsUnknown() && req.StateValue.IsNull() != req.PlanValue.IsNull()
}

func capacityAttribute(kind string, weight int64) schema.SingleNestedAttribute {
	a := schema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: "Run " + kind + " nodes: a NodePool `<name>-" + kind + "` constrained to `karpenter.sh/capacity-type = " + kind + "`.",
		Attributes: map[string]schema.Attribute{
			"max_gpus": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Most GPUs (`nvidia.com/gpu`, whole GPUs as EC2 counts them) this capacity type may run: the NodePool's `limits`. " +
					"Omitted: no GPU limit, so Karpenter launches as many nodes as pending pods ask for (within `max_cpu` and " +
					"`max_memory` when set), and `supplies[\"" + kind + "\"].resources` is null, as there is no most.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"nodes": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "A static pool: Karpenter keeps exactly this many nodes, whether pods need them or not " +
					"(the NodePool's `replicas`), e.g. a reserved block of nodes for a long training run. Karpenter's " +
					"`StaticCapacity` feature gate must be on (`--feature-gates StaticCapacity=true`, alpha since v1.12, still in v1.15). The " +
					"instance types must carry one GPU count, so that `supplies` are known. Excludes `max_gpus`, `max_cpu`, " +
					"`max_memory` and `weight`, which Karpenter refuses on static NodePools, and Karpenter cannot turn a " +
					"NodePool static or dynamic in place, so setting or removing it replaces the pool.",
				Validators: []validator.Int64{int64validator.AtLeast(0), int64validator.ConflictsWith(
					path.MatchRelative().AtParent().AtName("max_gpus"), path.MatchRelative().AtParent().AtName("max_cpu"),
					path.MatchRelative().AtParent().AtName("max_memory"), path.MatchRelative().AtParent().AtName("weight"))},
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplaceIf(staticChanges,
					"Setting or removing nodes replaces the pool.", "Setting or removing `nodes` replaces the pool.")}},
			"weight": schema.Int64Attribute{Optional: true, Computed: true, Default: int64Default(weight),
				MarkdownDescription: "NodePool weight, 1-100: Karpenter tries higher weights first. Defaults to " +
					itoa(weight) + " (reserved " + itoa(defaultReservedWeight) + ", spot " + itoa(defaultSpotWeight) + ", on-demand " +
					itoa(defaultOnDemandWeight) + ": capacity already paid for first, then spot while it lasts, and on-demand fills in).",
				Validators: []validator.Int64{int64validator.Between(1, 100)}},
			"max_cpu": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Most CPU the capacity type's nodes may add up to (the NodePool's `limits.cpu`), e.g. `1536`. Omitted: no limit besides `max_gpus`.",
				Validators:          []validator.String{framework.Quantity()}},
			"max_memory": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Most memory the capacity type's nodes may add up to (the NodePool's `limits.memory`), e.g. `16Ti`. Omitted: no limit besides `max_gpus`.",
				Validators:          []validator.String{framework.Quantity()}},
		},
	}
	if kind == capacity.CapacityReserved {
		a.MarkdownDescription += " Karpenter launches these nodes only into the On-Demand Capacity Reservations and " +
			"Capacity Blocks for ML that the node class's `capacity_reservation_selector` selects; `max_gpus` should not " +
			"exceed what they hold."
		a.Attributes["price_per_hour"] = schema.Float64Attribute{Optional: true,
			MarkdownDescription: "Price of one reserved instance per hour (USD), for `supplies[\"reserved\"].hourly_price`, e.g. a " +
				"Capacity Block's. Omitted: the on-demand price (`on_demand.price_per_hour`, else the price table's), which " +
				"is what an On-Demand Capacity Reservation costs. The instance types must then carry one GPU count.",
			Validators: []validator.Float64{float64validator.AtLeast(0)}}
		return a
	}
	if kind == capacity.CapacityOnDemand {
		a.Attributes["price_per_hour"] = schema.Float64Attribute{Optional: true,
			MarkdownDescription: "On-demand price of one instance per hour (USD), instead of the price table's for the provider's " +
				"`pricing_region` (e.g. a negotiated price, or a region the table lacks). It then also underlies `spot.discount`. " +
				"The instance types must then carry one GPU count, as the price is per instance.",
			Validators: []validator.Float64{float64validator.AtLeast(0)}}
		return a
	}
	a.Attributes["price_per_hour"] = schema.Float64Attribute{Optional: true,
		MarkdownDescription: "Spot price of one instance per hour (USD), for `supplies[\"spot\"].hourly_price`. Conflicts with " +
			"`discount`; with neither, the spot `hourly_price` is null, as spot prices change and no table holds them. " +
			"The instance types must then carry one GPU count, as the price is per instance.",
		Validators: []validator.Float64{float64validator.AtLeast(0),
			float64validator.ConflictsWith(path.MatchRelative().AtParent().AtName("discount"))}}
	a.Attributes["discount"] = schema.Float64Attribute{Optional: true,
		MarkdownDescription: "Spot price as a fraction off the on-demand price, 0 to 1 (`0.6`: spot costs 40% of on-demand), for " +
			"`supplies[\"spot\"].hourly_price`. The on-demand price is `on_demand.price_per_hour` when set, else the price table's. " +
			"Conflicts with `price_per_hour`.",
		Validators: []validator.Float64{float64validator.Between(0, 1)}}
	return a
}

func (gpuNodePool) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("node pool")
	name := attrs["name"].(schema.StringAttribute)
	name.Validators = append(name.Validators, poolNameLength{})
	name.MarkdownDescription += " The names of the pool's objects derive from it, so it is " + poolNameLength{}.Description(ctx) + "."
	attrs["name"] = name
	attrs["uid"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "UID of the first of the pool's objects (on-demand NodePool, spot NodePool, EC2NodeClass copy, reserved NodePool, NodeOverlays) that exists."}
	attrs["labels"] = withDescription(attrs["labels"], "Labels of the pool's NodePools and NodeOverlay (`metadata.labels`), "+
		"merged over the provider's `default_labels`. For labels on the nodes, see `node_labels`.")
	attrs["node_class"] = schema.StringAttribute{Required: true,
		MarkdownDescription: "Name of the `EC2NodeClass` the nodes launch with (e.g. `mlplatform_node_class.gpu.name`); with `billing`, " +
			"the nodes launch with the pool's copy of it.",
		Validators: []validator.String{framework.DNSSubdomain()}}
	attrs["gpu"] = schema.SingleNestedAttribute{Required: true, MarkdownDescription: "Which GPUs the nodes carry.",
		Attributes: map[string]schema.Attribute{
			"model": schema.StringAttribute{Required: true,
				MarkdownDescription: "GPU model, by any name `data.mlplatform_gpu` accepts (e.g. `a100-80gb`, `H100`), " +
					"that an EC2 instance type carries; a model only NVIDIA's MIG configs name (e.g. `a800`, `h20`) is refused " +
					"at plan. `gb200` runs on `p6e-gb200.36xlarge`, selected by name (not by `instance_requirements`)."},
			"instance_types": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "EC2 instance types, each checked to carry `model`. Omitted, and without " +
					"`instance_requirements`: every instance type of the model in the provider's catalog, by name.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues()}},
			"instance_requirements": instanceRequirementsAttribute(),
			"count_per_node": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "GPUs per node, derived from the instance types and known at plan; null when they carry " +
					"different counts (e.g. p5.4xlarge with 1 H100 and p5.48xlarge with 8), which the plan warns about " +
					"when `instance_requirements` chose them."},
			"min_instance_types": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Karpenter's `minValues` on the instance types: launch only when at least this many of " +
					"them are available to choose from, so a spot pool keeps room to move when one type runs out. At most " +
					"the number of instance types (with `instance_requirements`, of the catalog's that match), and 50.",
				Validators: []validator.Int64{int64validator.Between(1, 50)}},
		}}
	attrs["spot"] = capacityAttribute(capacity.CapacitySpot, defaultSpotWeight)
	attrs["on_demand"] = capacityAttribute(capacity.CapacityOnDemand, defaultOnDemandWeight)
	attrs["reserved"] = capacityAttribute(capacity.CapacityReserved, defaultReservedWeight)
	attrs["mig"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Partition the GPUs with MIG: the nodes get the label `nvidia.com/mig.config`, which the GPU " +
			"Operator's MIG manager applies. Set `profiles` or `config` for every GPU alike, or `parts`. Conflicts with `time_slicing`. " +
			"Under `mixed`, Karpenter does not know the `nvidia.com/mig-*` resources, so the pool also writes a " +
			"NodeOverlay with the MIG capacity per node (named like the pool, or `<name>-<n>gpu` per GPU count when the " +
			"instance types differ in it); **Karpenter's `NodeOverlay` feature gate must be on** " +
			"(`--feature-gates NodeOverlay=true`, Helm `settings.featureGates.nodeOverlay=true`), else pods asking for " +
			"MIG devices never get a node. Under `single`, MIG devices are advertised as `nvidia.com/gpu` and Karpenter " +
			"counts whole GPUs from EC2 data, so it under-counts the devices a node offers (it may launch more nodes than needed, never fewer).",
		Attributes: map[string]schema.Attribute{
			"strategy": schema.StringAttribute{Optional: true, Computed: true, Default: stringDefault("mixed"),
				MarkdownDescription: "The device plugin's MIG strategy in the cluster: `mixed` (default) or `single`.",
				Validators:          []validator.String{stringvalidator.OneOf("mixed", "single")}},
			"profiles": schema.MapAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "MIG instances per GPU, profile to count (e.g. `{ \"1g.10gb\" = 7 }`), checked by placement.",
				Validators: []validator.Map{mapvalidator.ValueInt64sAre(int64validator.AtLeast(0)),
					mapvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("config"), path.MatchRelative().AtParent().AtName("parts"))}},
			"config": schema.StringAttribute{Optional: true,
				MarkdownDescription: "A mig-parted config name such as `all-1g.10gb` or `all-balanced`, or a compact layout (`3g.40gb=2`)."},
			"parts": migPartsAttribute(),
			"config_name": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The mig-parted config the nodes get, as the value of their label `nvidia.com/mig.config`, " +
					"known at plan: a default name (`all-1g.10gb`, `all-balanced`) or, for a layout or parts mig-parted's " +
					"default config lacks, a custom one (`custom-3g.40gb-x2`, `custom-0-3-all-balanced-4-7-all-disabled`), " +
					"which a `mlplatform_mig_config` the GPU Operator uses must define (key its `mig_configs` by this)."},
		}}
	attrs["time_slicing"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Share each GPU by time-slicing (the device plugin's config must match). Karpenter counts " +
			"whole GPUs from EC2 data, not replicas. Conflicts with `mig`.",
		Attributes: map[string]schema.Attribute{"replicas": schema.Int64Attribute{Required: true,
			MarkdownDescription: "Replicas per GPU, at least 2.", Validators: []validator.Int64{int64validator.AtLeast(2)}}}}
	attrs["node_labels"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Labels of the nodes, besides `" + capacity.LabelGPU + "` (the model's name in lower case, always set) and `nvidia.com/mig.config`.",
		Validators:          framework.LabelMapValidators()}
	attrs["taints"] = schema.ListNestedAttribute{Optional: true, Computed: true,
		MarkdownDescription: "Taints of the nodes. Defaults to `nvidia.com/gpu=true:NoSchedule`, so only pods that tolerate it land there; `[]` for none.",
		NestedObject:        schema.NestedAttributeObject{Attributes: framework.TaintAttributes()},
		Validators:          []validator.List{framework.TaintsUnique()},
		Default:             listdefault.StaticValue(defaultTaints())}
	attrs["disruption"] = disruptionAttribute()
	attrs["expire_after"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "How long a node lives before Karpenter replaces it, e.g. `720h`, or `Never`. Omitted: Karpenter's default (720h)."}
	attrs["efa"] = schema.BoolAttribute{Optional: true,
		MarkdownDescription: "The nodes carry EFA interfaces (their node class sets `efa_instance_type`, or `network_interfaces` " +
			"with `efa-only` interfaces), so `supplies[*].resources` add `" + resourceEFA + "`, the EFA devices the AWS EFA device " +
			"plugin advertises: the instance type's EFA interfaces per node (p5.48xlarge: 32) times the most nodes. Every " +
			"instance type of the pool must support EFA.",
	}
	attrs["termination_grace_period"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "How long Karpenter waits for a node's pods when it drains the node (for drift, expiry or " +
			"consolidation) before it deletes them anyway, e.g. `24h`, as the EKS GPU blueprints set so that a training run " +
			"can finish or checkpoint. Omitted: Karpenter waits as long as pods' disruption budgets and " +
			"`karpenter.sh/do-not-disrupt` ask, which may be forever."}
	attrs["billing"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Billing tags (team, project, cost centre), on both the nodes and their EC2 instances and volumes. " +
			"They become node labels, so GPU-hours can be summed per key in Kubernetes (e.g. kube-state-metrics node labels " +
			"in Prometheus), and EC2 tags for AWS cost allocation. Karpenter takes EC2 tags from the EC2NodeClass only, so a " +
			"pool with billing launches its nodes with an EC2NodeClass of its own, named like the pool: a copy of " +
			"`node_class` whose `tags` add these. The pool writes the copy, `mlplatform_node_class` keeps it up to date in the " +
			"same apply, and an EC2NodeClass of the pool's name that is not such a copy is never overwritten or deleted. Keys Karpenter " +
			"reserves for tags are refused.",
		Validators: append(framework.LabelMapValidators(), mapvalidator.KeysAre(reservedTagKey{}))}
	attrs["supplies"] = schema.MapNestedAttribute{Computed: true,
		MarkdownDescription: "What the pool supplies, per capacity type (`reserved`, `on-demand`, `spot`), known at plan: `node_labels`, " +
			"`taints` and `tolerations` to give a `mlplatform_resource_flavor`; `resources`, the most of each extended " +
			"resource the nodes can ever expose (e.g. `nvidia.com/mig-1g.10gb` = 7 x `max_gpus`), and `per_gpu`, what one GPU " +
			"exposes; `cpu_milli_per_gpu` and `memory_mib_per_gpu`, what a GPU's share of a node offers pods; and " +
			"`hourly_price`, what one unit of each resource costs per hour. So quotas in whole GPUs and their most hourly " +
			"cost can be computed at plan. A flavor of the same configuration planned before the pool, given GPU quota, " +
			"whose labels no planned pool's nodes carry is a warning here (see `mlplatform_resource_flavor`'s `node_labels`).",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"node_labels": schema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "Labels that select the nodes."},
			"taints":      schema.ListAttribute{ElementType: taintType, Computed: true, MarkdownDescription: "Taints of the nodes."},
			"tolerations": schema.ListAttribute{ElementType: tolerationType, Computed: true, MarkdownDescription: "Tolerations of those taints."},
			"resources": schema.MapAttribute{ElementType: types.Int64Type, Computed: true,
				MarkdownDescription: "Most of each resource: `per_gpu` times `max_gpus` (with `mig.parts`, `per_node` times " +
					"the whole nodes `max_gpus` allows); null when `max_gpus` is omitted."},
			"per_gpu": schema.MapAttribute{ElementType: types.Int64Type, Computed: true,
				MarkdownDescription: "What one GPU exposes of each resource in `resources` (7 `nvidia.com/mig-1g.10gb` under " +
					"`all-1g.10gb`, 1 `nvidia.com/gpu` without MIG): `resources` is this times `max_gpus`. A quota in whole " +
					"GPUs times this is the quota in what the nodes expose, and it does not change when the pool is resized. " +
					"Null when `mig.parts` split the GPUs of a node, which then expose different things: see `per_node`."},
			"per_node": schema.MapAttribute{ElementType: types.Int64Type, Computed: true,
				MarkdownDescription: "What one node exposes of each resource (56 `nvidia.com/mig-1g.10gb` on a p4de.24xlarge " +
					"under `all-1g.10gb`; under `mig.parts` the sum over the parts, e.g. 4 `nvidia.com/gpu`, 8 `nvidia.com/mig-1g.10gb`, " +
					"4 `nvidia.com/mig-2g.20gb` and 4 `nvidia.com/mig-3g.40gb` for GPUs 0-3 under `all-balanced` and 4-7 whole). " +
					"With `mig.parts`, `resources` is this times the nodes `max_gpus` allows. Null when the instance types " +
					"carry different GPU counts."},
			"cpu_milli_per_gpu": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "CPU (millicores) one GPU's share of a node offers pods: the instance type's allocatable " +
					"CPU as Karpenter computes it with its default reservations, divided by its GPUs, the least among the " +
					"pool's instance types (with `gpu.instance_requirements`, the catalog's that match), e.g. p4de.24xlarge: " +
					"95690m / 8 = 11961. A queue's CPU quota per GPU."},
			"memory_mib_per_gpu": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Memory (MiB) one GPU's share of a node offers pods, computed like `cpu_milli_per_gpu` " +
					"(p4de.24xlarge: 1082712Mi / 8 = 135339). A queue's memory quota per GPU."},
			"hourly_price": schema.MapAttribute{ElementType: types.Float64Type, Computed: true,
				MarkdownDescription: "Price per hour (USD) of one unit of each resource in `resources`: a whole GPU costs the " +
					"instance price divided by its GPUs; the units one GPU exposes share its price in proportion to their " +
					"compute slices (a MIG profile's `Ng`, 1 for a whole GPU or a time-slicing replica), so they add up to the " +
					"GPU's price: a `1g.10gb` of an A100 under `all-1g.10gb` costs 1/7 of the GPU, under `all-balanced` " +
					"(2 x 1g.10gb, 2g.20gb, 3g.40gb) a 1g 1/7, the 2g 2/7 and the 3g 3/7, and a slice the layout leaves idle is " +
					"paid by those in use. With instance types of different prices per GPU, the highest is taken, so " +
					"`resources` x `hourly_price` bounds what the capacity can cost. On-demand prices are the table's for the " +
					"provider's `pricing_region` unless `on_demand.price_per_hour` is set; spot prices come from " +
					"`spot.price_per_hour` or `spot.discount`. Null when there is no price: spot with neither, or no on-demand " +
					"price for the region and instance types (the plan then warns). Known at plan."},
		}}}
	attrs[attrCopyInSync] = copyInSyncAttribute()
	attrs["wait_for_ready"] = waitForReadyAttribute("each of the pool's objects (NodePools, NodeOverlays, EC2NodeClass copy)")
	return schema.Schema{
		MarkdownDescription: "A GPU fleet on Karpenter: one NodePool per capacity type (`<name>-spot`, `<name>-on-demand`), " +
			"limited in GPUs, with MIG or time-slicing, NodeOverlays for mixed MIG, and for billing an EC2NodeClass of its own. The GPU model, instance types and " +
			"MIG layout are checked at plan time, and `supplies` tells Kueue flavors and quotas what the nodes offer and " +
			"what each unit costs per hour.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func disruptionAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "When Karpenter may remove nodes. Omitted: Karpenter's defaults.",
		Attributes: map[string]schema.Attribute{
			"consolidation_policy": schema.StringAttribute{Optional: true, Computed: true, Default: stringDefault("WhenEmptyOrUnderutilized"),
				MarkdownDescription: "`WhenEmpty` or `WhenEmptyOrUnderutilized` (default). For training, `WhenEmpty` avoids moving running jobs.",
				Validators: []validator.String{stringvalidator.OneOf(string(karpv1.ConsolidationPolicyWhenEmpty),
					string(karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized))}},
			"consolidate_after": schema.StringAttribute{Optional: true, Computed: true, Default: stringDefault("0s"),
				MarkdownDescription: "How long a node must be consolidatable before it is removed, e.g. `10m`, or `Never`. Default `0s`."},
			"budgets": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Disruption budgets: how many nodes may be disrupted at once, optionally during a schedule.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"nodes": schema.StringAttribute{Required: true, MarkdownDescription: "A count or percentage, e.g. `1` or `10%`."},
					"schedule": schema.StringAttribute{Optional: true, MarkdownDescription: "Cron schedule (UTC) when the budget starts; needs `duration`.",
						Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRelative().AtParent().AtName("duration"))}},
					"duration": schema.StringAttribute{Optional: true, MarkdownDescription: "How long the budget is active after each schedule hit, e.g. `8h`; needs `schedule`.",
						Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRelative().AtParent().AtName("schedule"))}},
				}}},
		}}
}

var (
	taintType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"key": types.StringType, "value": types.StringType, "effect": types.StringType}}
	tolerationType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"key": types.StringType, "operator": types.StringType, "value": types.StringType, "effect": types.StringType,
		"toleration_seconds": types.Int64Type}}
)

func defaultTaints() types.List {
	t, _ := types.ObjectValue(taintType.AttrTypes, map[string]attr.Value{
		"key": types.StringValue(capacity.TaintGPU), "value": types.StringValue("true"), "effect": types.StringValue("NoSchedule")})
	return types.ListValueMust(taintType, []attr.Value{t})
}
