package karpenter

import (
	"context"
	"maps"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// The AMI families the EC2NodeClass CRD allows (its enum leaves out AMIFamilyUbuntu), from
// Karpenter's constants; the EBS volume types for the descriptions only (the CRD's enum has no
// Go constants: the validate engine checks it).
var (
	amiFamilies = []string{awsv1.AMIFamilyAL2, awsv1.AMIFamilyAL2023, awsv1.AMIFamilyBottlerocket, awsv1.AMIFamilyCustom,
		awsv1.AMIFamilyWindows2019, awsv1.AMIFamilyWindows2022, awsv1.AMIFamilyWindows2025}
	volumeTypes = []string{"standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"}
)

type nodeClassModel struct {
	framework.Metadata
	Role                  types.String          `tfsdk:"role"`
	InstanceProfile       types.String          `tfsdk:"instance_profile"`
	AMIFamily             types.String          `tfsdk:"ami_family"`
	AMISelector           []amiTermModel        `tfsdk:"ami_selector"`
	SubnetSelector        []subnetTermModel     `tfsdk:"subnet_selector"`
	SecurityGroupSelector []selectorTermModel   `tfsdk:"security_group_selector"`
	BlockDevice           []blockDeviceModel    `tfsdk:"block_device"`
	Kubelet               *kubeletModel         `tfsdk:"kubelet"`
	UserData              types.String          `tfsdk:"user_data"`
	NodeConfig            *nodeConfigModel      `tfsdk:"node_config"`
	MetadataOptions       *metadataOptionsModel `tfsdk:"metadata_options"`
	launchModel
	Tags         types.Map  `tfsdk:"tags"`
	Billing      types.Map  `tfsdk:"billing"`
	TagsAll      types.Map  `tfsdk:"tags_all"`
	WaitForReady types.Bool `tfsdk:"wait_for_ready"`
}

type amiTermModel struct {
	Alias        types.String `tfsdk:"alias"`
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Owner        types.String `tfsdk:"owner"`
	SSMParameter types.String `tfsdk:"ssm_parameter"`
	Tags         types.Map    `tfsdk:"tags"`
}

type subnetTermModel struct {
	ID   types.String `tfsdk:"id"`
	Tags types.Map    `tfsdk:"tags"`
}

// selectorTermModel is a security group selector term.
type selectorTermModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
	Tags types.Map    `tfsdk:"tags"`
}

type blockDeviceModel struct {
	DeviceName          types.String `tfsdk:"device_name"`
	RootVolume          types.Bool   `tfsdk:"root_volume"`
	VolumeSize          types.String `tfsdk:"volume_size"`
	VolumeType          types.String `tfsdk:"volume_type"`
	IOPS                types.Int64  `tfsdk:"iops"`
	Throughput          types.Int64  `tfsdk:"throughput"`
	Encrypted           types.Bool   `tfsdk:"encrypted"`
	DeleteOnTermination types.Bool   `tfsdk:"delete_on_termination"`
	KMSKeyID            types.String `tfsdk:"kms_key_id"`
	SnapshotID          types.String `tfsdk:"snapshot_id"`
	InitializationRate  types.Int64  `tfsdk:"volume_initialization_rate"`
}

type kubeletModel struct {
	MaxPods        types.Int64 `tfsdk:"max_pods"`
	PodsPerCore    types.Int64 `tfsdk:"pods_per_core"`
	SystemReserved types.Map   `tfsdk:"system_reserved"`
	KubeReserved   types.Map   `tfsdk:"kube_reserved"`
	EvictionHard   types.Map   `tfsdk:"eviction_hard"`
	EvictionSoft   types.Map   `tfsdk:"eviction_soft"`
	EvictionGrace  types.Map   `tfsdk:"eviction_soft_grace_period"`
	EvictionMaxPod types.Int64 `tfsdk:"eviction_max_pod_grace_period"`
	ImageGCHigh    types.Int64 `tfsdk:"image_gc_high_threshold_percent"`
	ImageGCLow     types.Int64 `tfsdk:"image_gc_low_threshold_percent"`
	CPUCFSQuota    types.Bool  `tfsdk:"cpu_cfs_quota"`
	ClusterDNS     types.List  `tfsdk:"cluster_dns"`
}

type metadataOptionsModel struct {
	HTTPEndpoint     types.String `tfsdk:"http_endpoint"`
	HTTPProtocolIPv6 types.String `tfsdk:"http_protocol_ipv6"`
	HopLimit         types.Int64  `tfsdk:"http_put_response_hop_limit"`
	HTTPTokens       types.String `tfsdk:"http_tokens"`
}

type nodeClass struct{}

// The cycle finds these hooks by type assertion; these make a signature mismatch a compile error.
var (
	_ framework.AfterApplier[nodeClassModel] = nodeClass{}
	_ framework.ReadyWaiter[nodeClassModel]  = nodeClass{}
	_ framework.PlanModifier                 = nodeClass{}
	_ framework.ConfigChecker                = nodeClass{}
	_ framework.ConfigValidatorsProvider     = nodeClass{}
	_ framework.UpstreamPathRenamer          = nodeClass{}
	_ framework.UpstreamRulePointer          = nodeClass{}
)

// NewNodeClassResource is mlplatform_node_class.
func NewNodeClassResource() resource.Resource {
	return framework.NewResource[nodeClassModel](nodeClass{})
}

func (nodeClass) Kind() kube.Kind    { return ec2NodeClassKind }
func (nodeClass) TypeSuffix() string { return "node_class" }

// UpstreamPaths names the attributes whose names are not the EC2NodeClass's field names: selector
// terms, block devices with their ebs fields flattened, the placement group selector, and the tags
// written (tags_all: default_labels, billing and tags merged).
func (nodeClass) UpstreamPaths(kube.Kind) map[string]string {
	return map[string]string{
		"spec.amiSelectorTerms":                 "ami_selector",
		"spec.subnetSelectorTerms":              "subnet_selector",
		"spec.securityGroupSelectorTerms":       "security_group_selector",
		"spec.capacityReservationSelectorTerms": "capacity_reservation_selector",
		"spec.blockDeviceMappings":              "block_device",
		"spec.blockDeviceMappings[*].ebs":       "block_device[*]",
		"spec.placementGroupSelector.name":      "placement_group_name",
		"spec.placementGroupSelector.id":        "placement_group_id",
		"spec.tags":                             "tags_all",
		"spec.metadataOptions.httpProtocolIPv6": "metadata_options.http_protocol_ipv6",
		"spec.enclaveOptions.enabled":           "nitro_enclaves",
		"spec.cpuOptions.nestedVirtualization":  "nested_virtualization",
	}
}

// UpstreamPointers names the attribute to change for the CRD's CEL rules reported on a parent
// field.
func (nodeClass) UpstreamPointers(kube.Kind) []framework.UpstreamPointer {
	return []framework.UpstreamPointer{
		{Field: "spec", Message: "must specify exactly one of ['role', 'instanceProfile']", To: "role"},
		{Field: "spec", Message: "must specify amiFamily if amiSelectorTerms does not contain an alias", To: "ami_family"},
		{Field: "spec", Message: "amiFamily must be", To: "ami_family"},
		{Field: "spec.kubelet", Message: "must be greater than imageGCLowThresholdPercent", To: "kubelet.image_gc_high_threshold_percent"},
		{Field: "spec.placementGroupSelector", Message: "'name' and 'id' are mutually exclusive", To: "placement_group_name"},
		{Field: "spec.blockDeviceMappings[*].ebs", Message: "snapshotID must be set when volumeInitializationRate is set",
			To: "block_device[*].volume_initialization_rate"},
	}
}

func tagMap(desc string, required bool) schema.MapAttribute {
	return schema.MapAttribute{
		ElementType: types.StringType, Optional: !required, Required: required, MarkdownDescription: desc,
	}
}

func (nodeClass) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("EC2NodeClass")
	str := func(desc string, v ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: v}
	}
	attrs["role"] = str("IAM role the nodes use; Karpenter creates an instance profile for it. Exactly one of `role` and `instance_profile`.",
		stringvalidator.LengthAtLeast(1))
	attrs["instance_profile"] = str("Existing IAM instance profile for the nodes. Exactly one of `role` and `instance_profile`.")
	attrs["ami_family"] = str("AMI family: one of "+code(amiFamilies)+". Required unless `ami_selector` uses an `alias`; "+
		"with an alias it may only be the alias's family or `Custom`.", stringvalidator.OneOf(amiFamilies...))
	attrs["ami_selector"] = schema.ListNestedAttribute{
		Required: true,
		MarkdownDescription: "AMI selector terms (ORed). Either one term with an `alias` such as `al2023@latest` or " +
			"`bottlerocket@v1.20.0` (EKS-optimised AMIs, with NVIDIA drivers on GPU instances), or terms by `id`, " +
			"or by `tags`/`name`/`owner`/`ssm_parameter`. At most 30.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"alias": str("`family@version`; family one of `al2`, `al2023`, `bottlerocket`, `windows2019`, `windows2022`, " +
				"`windows2025` (Windows only `@latest`). Excludes every other field and term."),
			"id":            str("AMI id (`ami-...`); excludes the other fields."),
			"name":          str("AMI name (the name field, not the Name tag)."),
			"owner":         str("AMI owner: an account id, `self`, `amazon` or `aws-marketplace`."),
			"ssm_parameter": str("Name or ARN of an SSM parameter holding the AMI id."),
			"tags":          tagMap("Tags that select AMIs; `*` matches any value. At most 20.", false),
		}},
	}
	attrs["subnet_selector"] = selectorAttribute("subnet", false)
	attrs["security_group_selector"] = selectorAttribute("security group", true)
	attrs["block_device"] = blockDeviceAttribute()
	attrs["kubelet"] = kubeletAttribute()
	attrs["user_data"] = schema.StringAttribute{
		Optional: true, Sensitive: true,
		MarkdownDescription: "User data in the format of the AMI family; Karpenter merges its own settings into it. " +
			"Sensitive, as bootstrap scripts often carry credentials or join tokens; it is kept out of plan output.",
	}
	attrs["node_config"] = nodeConfigAttribute()
	attrs["metadata_options"] = metadataOptionsAttribute()
	maps.Copy(attrs, launchAttributes())
	attrs["tags"] = schema.MapAttribute{
		ElementType: types.StringType, Optional: true,
		MarkdownDescription: "EC2 tags for the instances, volumes and launch templates. Keys Karpenter reserves " +
			"(" + reservedTagsDoc + ") are refused.",
		Validators: []validator.Map{mapvalidator.KeysAre(reservedTagKey{})},
	}
	attrs["billing"] = schema.MapAttribute{
		ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Billing tags (team, project, cost centre) added to `tags`, so that the cloud bill can be " +
			"split by them once they are activated as cost-allocation tags. A node pool's own `billing` is added on its copy of this class.",
		Validators: []validator.Map{mapvalidator.KeysAre(reservedTagKey{})},
	}
	attrs["tags_all"] = schema.MapAttribute{
		ElementType: types.StringType, Computed: true,
		MarkdownDescription: "The EC2 tags written: the provider's `default_labels`, then `billing`, then `tags`. Known at plan.",
	}
	attrs["wait_for_ready"] = waitForReadyAttribute("the EC2NodeClass")
	return schema.Schema{
		MarkdownDescription: "A Karpenter `EC2NodeClass` (karpenter.k8s.aws/v1): how Karpenter launches EC2 instances " +
			"(AMI, subnets, security groups, IAM, disks, kubelet, tags) for the node pools that name it. The CRD's " +
			"validation rules are checked at plan time. The provider's `default_labels` and `billing` become EC2 " +
			"tags on every instance and volume, for per-team cost allocation. A `mlplatform_gpu_node_pool` with `billing` " +
			"launches its nodes with a copy of the class that adds those tags; each apply of the class updates its copies. " +
			"Every field of the EC2NodeClass v1 spec of karpenter-provider-aws v1.15 can be set (`placementGroupSelector` " +
			"as `placement_group_name` or `placement_group_id`), and a test fails when a Karpenter upgrade adds one that cannot.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func selectorAttribute(what string, withName bool) schema.ListNestedAttribute {
	attrs := map[string]schema.Attribute{
		"tags": tagMap("Tags that select "+what+"s; `*` matches any value. At most 20.", false),
	}
	if withName {
		attrs["id"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Security group id (`sg-...`)."}
		attrs["name"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Security group name (not the Name tag)."}
	} else {
		attrs["id"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Subnet id (`subnet-...`)."}
	}
	fields := "`id` or `tags`"
	if withName {
		fields = "`id`, `name` or `tags`"
	}
	return schema.ListNestedAttribute{
		Required:            true,
		MarkdownDescription: "Selector terms (ORed) for the " + what + "s of the nodes; each term sets exactly one of " + fields + ". 1 to 30.",
		NestedObject:        schema.NestedAttributeObject{Attributes: attrs, Validators: []validator.Object{exactlyOneField{withName}}},
	}
}

func blockDeviceAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "EBS volumes of the nodes. At most one `root_volume` (mounted as kubelet's root " +
			"directory, where images and ephemeral storage live: size it for large training images). At most 50.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"device_name": schema.StringAttribute{Required: true, MarkdownDescription: "Device name, e.g. `/dev/xvda`."},
			"root_volume": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether this volume is kubelet's root volume."},
			"volume_size": schema.StringAttribute{Optional: true, MarkdownDescription: "Size with unit `Gi`, `G`, `Ti` or `T`, e.g. `200Gi` (at most 59000Gi / 64000G / 58Ti / 64T). " +
				"Needed unless `snapshot_id` is set (the volume then takes the snapshot's size).",
				// Parsed here, as Expand needs a quantity (the CRD's pattern is the validate engine's); the
				// CRD does not need a size or a snapshot, but EC2 refuses a volume with neither.
				Validators: []validator.String{framework.Quantity(),
					stringvalidator.AtLeastOneOf(path.MatchRelative().AtParent().AtName("snapshot_id"))}},
			"volume_type": schema.StringAttribute{Optional: true, MarkdownDescription: "EBS volume type: one of " + code(volumeTypes) + "."},
			"iops": schema.Int64Attribute{Optional: true, MarkdownDescription: "Provisioned IOPS (gp3 3000-16000, io1/io2 100-64000).",
				Validators: []validator.Int64{int64validator.Between(100, 64000)}},
			"throughput": schema.Int64Attribute{Optional: true, MarkdownDescription: "gp3 throughput in MiB/s, 125-1000.",
				Validators: []validator.Int64{int64validator.Between(125, 1000)}},
			"encrypted":             schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether the volume is encrypted."},
			"delete_on_termination": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether the volume is deleted with the instance."},
			"kms_key_id":            schema.StringAttribute{Optional: true, MarkdownDescription: "KMS key for encryption."},
			"snapshot_id": schema.StringAttribute{Optional: true, MarkdownDescription: "EBS snapshot the volume starts from " +
				"(`snap-...`), e.g. one with training images or datasets pre-loaded, so nodes start without pulling them.",
				Validators: []validator.String{stringvalidator.RegexMatches(regexpMust(`^snap-[0-9a-z]+$`), "must be a snapshot id (snap-...)")}},
			"volume_initialization_rate": schema.Int64Attribute{Optional: true, MarkdownDescription: "MiB/s at which EBS " +
				"loads the snapshot's blocks (provisioned volume initialization), 100-300; needs `snapshot_id`.",
			},
		}},
	}
}

func kubeletAttribute() schema.SingleNestedAttribute {
	reserved := []string{"cpu", "memory", "ephemeral-storage", "pid"}
	signals := []string{"memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"}
	resMap := func(desc string, keys []string) schema.MapAttribute {
		return schema.MapAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: desc + " Keys: " + code(keys) + "."}
	}
	pct := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Optional: true, MarkdownDescription: desc}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "The kubelet settings Karpenter reads (a subset of KubeletConfiguration), written to the " +
			"EC2NodeClass's `spec.kubelet`. The plan checks them as Karpenter's controller does; since Karpenter v1.15 the " +
			"apiserver does not, and the controller refuses a bad value by launching no node. Settings Karpenter only " +
			"passes through (NUMA and CPU manager policies) are `node_config`'s.",
		Attributes: map[string]schema.Attribute{
			"max_pods":        schema.Int64Attribute{Optional: true, MarkdownDescription: "Maximum pods per node."},
			"pods_per_core":   schema.Int64Attribute{Optional: true, MarkdownDescription: "Pods per CPU core; capped by `max_pods`."},
			"system_reserved": resMap("Resources reserved for OS daemons.", reserved),
			"kube_reserved":   resMap("Resources reserved for Kubernetes daemons.", reserved),
			"eviction_hard":   resMap("Hard eviction thresholds.", signals),
			"eviction_soft":   resMap("Soft eviction thresholds; each needs a grace period in `eviction_soft_grace_period`.", signals),
			"eviction_soft_grace_period": schema.MapAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "How long each soft eviction threshold must be exceeded before pods are evicted, e.g. `1m30s`. Keys: " + code(signals) + ".",
				// Parsed here, as Expand needs a duration.
				Validators: []validator.Map{mapvalidator.ValueStringsAre(stringvalidator.RegexMatches(goDuration, "must be a duration such as 1m30s"))}},
			"eviction_max_pod_grace_period": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Longest grace period (seconds) given to pods evicted for a soft threshold."},
			"image_gc_high_threshold_percent": pct("Disk usage percent above which image garbage collection always runs; above the low threshold."),
			"image_gc_low_threshold_percent":  pct("Disk usage percent below which image garbage collection never runs."),
			"cpu_cfs_quota":                   schema.BoolAttribute{Optional: true, MarkdownDescription: "Enforce CPU CFS quota for containers with CPU limits."},
			"cluster_dns": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "IP addresses of the cluster DNS servers."},
		},
	}
}

func metadataOptionsAttribute() schema.SingleNestedAttribute {
	// The CRD's enums, for the descriptions: the validate engine checks them.
	enum := func(desc string, def string, values ...string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, Default: stringDefault(def),
			MarkdownDescription: desc + " One of " + code(values) + "; defaults to `" + def + "`."}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Instance Metadata Service options of the nodes. Omitted, Karpenter uses IMDSv2 only with a " +
			"hop limit of 1, so pods cannot reach the node's IAM role.",
		Attributes: map[string]schema.Attribute{
			"http_endpoint":      enum("Whether the metadata endpoint is on.", "enabled", "enabled", "disabled"),
			"http_protocol_ipv6": enum("Whether the IPv6 endpoint is on.", "disabled", "enabled", "disabled"),
			"http_tokens":        enum("Whether IMDSv2 tokens are required.", "required", "required", "optional"),
			"http_put_response_hop_limit": schema.Int64Attribute{Optional: true, Computed: true, Default: int64Default(1),
				MarkdownDescription: "Hop limit of metadata PUT responses, 1-64; defaults to 1."},
		},
	}
}
