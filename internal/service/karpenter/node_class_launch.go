package karpenter

import (
	"context"
	"fmt"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// launchModel is how the nodes are launched beyond AMI, subnets and disks: the capacity
// reservations and placement group they use, their network interfaces (EFA), instance store,
// monitoring, CPU and Nitro options, connection tracking. Limits and enums from the EC2NodeClass
// CRD (karpenter-provider-aws v1.15.2).
type launchModel struct {
	CapacityReservationSelector []capacityReservationTermModel `tfsdk:"capacity_reservation_selector"`
	PlacementGroupName          types.String                   `tfsdk:"placement_group_name"`
	PlacementGroupID            types.String                   `tfsdk:"placement_group_id"`
	NetworkInterfaces           []networkInterfaceModel        `tfsdk:"network_interfaces"`
	EFAInstanceType             types.String                   `tfsdk:"efa_instance_type"`
	AssociatePublicIPAddress    types.Bool                     `tfsdk:"associate_public_ip_address"`
	IPPrefixCount               types.Int64                    `tfsdk:"ip_prefix_count"`
	InstanceStorePolicy         types.String                   `tfsdk:"instance_store_policy"`
	DetailedMonitoring          types.Bool                     `tfsdk:"detailed_monitoring"`
	Context                     types.String                   `tfsdk:"context"`
	NitroEnclaves               types.Bool                     `tfsdk:"nitro_enclaves"`
	NestedVirtualization        types.String                   `tfsdk:"nested_virtualization"`
	ConnectionTracking          *connectionTrackingModel       `tfsdk:"connection_tracking"`
}

type connectionTrackingModel struct {
	TCPEstablished types.Int64 `tfsdk:"tcp_established_timeout"`
	UDPStream      types.Int64 `tfsdk:"udp_stream_timeout"`
	UDP            types.Int64 `tfsdk:"udp_timeout"`
}

type capacityReservationTermModel struct {
	ID                    types.String `tfsdk:"id"`
	Tags                  types.Map    `tfsdk:"tags"`
	OwnerID               types.String `tfsdk:"owner_id"`
	InstanceMatchCriteria types.String `tfsdk:"instance_match_criteria"`
}

type networkInterfaceModel struct {
	NetworkCardIndex types.Int64  `tfsdk:"network_card_index"`
	DeviceIndex      types.Int64  `tfsdk:"device_index"`
	InterfaceType    types.String `tfsdk:"interface_type"`
}

const (
	interfaceENA     = string(awsv1.InterfaceTypeInterface)
	interfaceEFAOnly = string(awsv1.InterfaceTypeEFAOnly)
)

// goDuration is a duration as metav1.Duration parses it, e.g. 1m30s.
var goDuration = regexpMust(`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`)

func launchAttributes() map[string]schema.Attribute {
	sibling := func(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }
	return map[string]schema.Attribute{
		"capacity_reservation_selector": schema.ListNestedAttribute{Optional: true,
			MarkdownDescription: "Selector terms (ORed) for the On-Demand Capacity Reservations and Capacity Blocks for ML " +
				"the nodes may use; pools with the `reserved` capacity type launch into them first. Each term sets `id`, or " +
				"any of `tags`, `owner_id` and `instance_match_criteria`. At most 30.",
			NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{Optional: true, MarkdownDescription: "Reservation id (`cr-...`); excludes the other fields.",
						// The CRD's rules on a term are reported on the list; naming the field takes the rules.
						Validators: []validator.String{
							stringvalidator.ConflictsWith(sibling("tags"), sibling("owner_id"), sibling("instance_match_criteria")),
							stringvalidator.AtLeastOneOf(sibling("tags"), sibling("instance_match_criteria"))}},
					"tags":     tagMap("Tags that select reservations; `*` matches any value. At most 20.", false),
					"owner_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Account id (12 digits) owning the reservations, for shared ones."},
					"instance_match_criteria": schema.StringAttribute{Optional: true,
						MarkdownDescription: "`open` (reservations any matching instance may use) or `targeted` (only launches that name them)."},
				},
			}},
		"placement_group_name": schema.StringAttribute{Optional: true,
			MarkdownDescription: "Name of the placement group the nodes launch in (e.g. a cluster placement group for " +
				"low-latency multi-node training). Conflicts with `placement_group_id`."},
		"placement_group_id": schema.StringAttribute{Optional: true,
			MarkdownDescription: "Id of the placement group the nodes launch in (`pg-...`). Conflicts with `placement_group_name`."},
		"efa_instance_type": schema.StringAttribute{Optional: true,
			MarkdownDescription: "Lay out EFA for this instance type, e.g. `p5.48xlarge`: the primary ENA interface on network " +
				"card 0, device 0, and an `efa-only` interface on every network card (card 0 on device 1, the others on " +
				"device 0), as AWS recommends, from the catalog's network cards of the type (32 on p5.48xlarge, 4 on " +
				"p4d.24xlarge, 1 on g6e.8xlarge). The node class then suits pools of instance types with that many cards; the " +
				"pools' `efa` adds `vpc.amazonaws.com/efa` to their supplies. Conflicts with `network_interfaces`. Types whose " +
				"cards do not all support EFA (p6-b300.48xlarge) are refused: set `network_interfaces` for them.",
			Validators: []validator.String{efaInstanceType{}, stringvalidator.ConflictsWith(sibling("network_interfaces"))}},
		"network_interfaces": schema.ListNestedAttribute{Optional: true,
			MarkdownDescription: "The network interfaces of each node, for EFA on instance types with several network cards " +
				"(p4d: 4, p5: 32): the primary ENA interface (`network_card_index = 0`, `device_index = 0`, " +
				"`interface_type = \"interface\"`) and an `efa-only` interface per network card. Omitted: one ENA interface. " +
				"At most 150, one per card and device index, and at most one `efa-only` per card.",
			Validators: []validator.List{networkInterfacesValid{}},
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"network_card_index": schema.Int64Attribute{Required: true, MarkdownDescription: "Network card index, from 0."},
				"device_index":       schema.Int64Attribute{Required: true, MarkdownDescription: "Device index on the card, from 0."},
				"interface_type": schema.StringAttribute{Required: true, MarkdownDescription: "`interface` (ENA) or `efa-only`.",
					Validators: []validator.String{stringvalidator.OneOf(interfaceENA, interfaceEFAOnly)}},
			}}},
		"associate_public_ip_address": schema.BoolAttribute{Optional: true,
			MarkdownDescription: "Whether the nodes get public IP addresses. Omitted: the subnet's setting."},
		"ip_prefix_count": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "IPv4 prefixes assigned to the primary network interface (prefix delegation)."},
		"instance_store_policy": schema.StringAttribute{Optional: true,
			MarkdownDescription: "`RAID0`: the instance's local NVMe disks (8 x 3.8 TB on a p5.48xlarge) become one RAID-0 " +
				"array holding containerd and kubelet state, so images and ephemeral storage (datasets, checkpoints " +
				"staged locally) use them. Omitted: the disks are left alone.",
			Validators: []validator.String{stringvalidator.OneOf(string(awsv1.InstanceStorePolicyRAID0))}},
		"detailed_monitoring": schema.BoolAttribute{Optional: true,
			MarkdownDescription: "Whether CloudWatch detailed (1-minute) monitoring is on for the nodes."},
		"context": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The EC2 Fleet `Context`, a field AWS reserves for some accounts; set it only when AWS says to."},
		"nitro_enclaves": schema.BoolAttribute{Optional: true,
			MarkdownDescription: "Whether the nodes are enabled for AWS Nitro Enclaves. Needs Karpenter v1.15 or newer."},
		"nested_virtualization": schema.StringAttribute{Optional: true,
			MarkdownDescription: "`enabled` or `disabled`: nested virtualization on the nodes. Enabled, Karpenter launches only " +
				"instance types that report support for it. Needs Karpenter v1.15 or newer."},
		"connection_tracking": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Idle connection tracking timeouts (seconds) of the nodes' network interfaces; EFA-only " +
				"interfaces are excluded. Unset timeouts keep EC2's defaults. Needs Karpenter v1.15 or newer.",
			Attributes: map[string]schema.Attribute{
				"tcp_established_timeout": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Idle established TCP connections, 60-432000; EC2's default is 432000 (350 on Nitro v6 types)."},
				"udp_stream_timeout": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Idle UDP flows that saw more than one request-response, 60-180; EC2's default is 180."},
				"udp_timeout": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Idle UDP flows in one direction or of one request-response, 30-60; EC2's default is 30."},
			}},
	}
}

func (l launchModel) expandLaunch(ctx context.Context, spec *awsv1.EC2NodeClassSpec, diags *diag.Diagnostics) {
	for _, t := range l.CapacityReservationSelector {
		spec.CapacityReservationSelectorTerms = append(spec.CapacityReservationSelectorTerms, awsv1.CapacityReservationSelectorTerm{
			ID: t.ID.ValueString(), Tags: framework.StringMap(ctx, t.Tags, diags), OwnerID: t.OwnerID.ValueString(),
			InstanceMatchCriteria: t.InstanceMatchCriteria.ValueString()})
	}
	if !l.PlacementGroupName.IsNull() || !l.PlacementGroupID.IsNull() {
		spec.PlacementGroupSelector = &awsv1.PlacementGroupSelector{Name: strPtr(l.PlacementGroupName), ID: strPtr(l.PlacementGroupID)}
	}
	for _, n := range l.NetworkInterfaces {
		spec.NetworkInterfaces = append(spec.NetworkInterfaces, &awsv1.NetworkInterface{NetworkCardIndex: int32(n.NetworkCardIndex.ValueInt64()),
			DeviceIndex: int32(n.DeviceIndex.ValueInt64()), InterfaceType: awsv1.InterfaceType(n.InterfaceType.ValueString())})
	}
	if !l.EFAInstanceType.IsNull() {
		nics, err := efaInterfaces(l.EFAInstanceType.ValueString())
		if err != nil { // refused at plan; kept as a guard
			diags.AddAttributeError(path.Root("efa_instance_type"), "Invalid EFA instance type", err.Error())
		}
		spec.NetworkInterfaces = nics
	}
	spec.AssociatePublicIPAddress = boolPtr(l.AssociatePublicIPAddress)
	spec.IPPrefixCount = int32Ptr(l.IPPrefixCount)
	if p := strPtr(l.InstanceStorePolicy); p != nil {
		policy := awsv1.InstanceStorePolicy(*p)
		spec.InstanceStorePolicy = &policy
	}
	spec.DetailedMonitoring = boolPtr(l.DetailedMonitoring)
	spec.Context = strPtr(l.Context)
	if !l.NitroEnclaves.IsNull() {
		spec.EnclaveOptions = &awsv1.EnclaveOptions{Enabled: l.NitroEnclaves.ValueBool()}
	}
	if v := strPtr(l.NestedVirtualization); v != nil {
		spec.CPUOptions = &awsv1.CPUOptions{NestedVirtualization: v}
	}
	if c := l.ConnectionTracking; c != nil {
		spec.ConnectionTracking = &awsv1.ConnectionTracking{TCPEstablishedTimeout: int32Ptr(c.TCPEstablished),
			UDPStreamTimeout: int32Ptr(c.UDPStream), UDPTimeout: int32Ptr(c.UDP)}
	}
}

// flattenLaunch reads the launch settings back. A setting the configuration leaves unset is not
// Terraform's: another writer's value is kept out of state (no diff), except on import.
func flattenLaunch(s awsv1.EC2NodeClassSpec, prior launchModel, importing bool) launchModel {
	keep := func(live, prior attr.Value) attr.Value {
		if prior.IsNull() && !importing {
			return prior
		}
		return live
	}
	out := launchModel{
		AssociatePublicIPAddress: keep(ptrBool(s.AssociatePublicIPAddress), prior.AssociatePublicIPAddress).(types.Bool),
		IPPrefixCount:            keep(ptrInt32(s.IPPrefixCount), prior.IPPrefixCount).(types.Int64),
		DetailedMonitoring:       keep(ptrBool(s.DetailedMonitoring), prior.DetailedMonitoring).(types.Bool),
		Context:                  keep(ptrStr(s.Context), prior.Context).(types.String),
		InstanceStorePolicy:      types.StringNull(),
		NitroEnclaves:            types.BoolNull(),
		NestedVirtualization:     types.StringNull(),
		PlacementGroupName:       types.StringNull(),
		PlacementGroupID:         types.StringNull(),
	}
	if s.InstanceStorePolicy != nil {
		out.InstanceStorePolicy = types.StringValue(string(*s.InstanceStorePolicy))
	}
	out.InstanceStorePolicy = keep(out.InstanceStorePolicy, prior.InstanceStorePolicy).(types.String)
	if s.EnclaveOptions != nil {
		out.NitroEnclaves = types.BoolValue(s.EnclaveOptions.Enabled)
	}
	out.NitroEnclaves = keep(out.NitroEnclaves, prior.NitroEnclaves).(types.Bool)
	if s.CPUOptions != nil {
		out.NestedVirtualization = ptrStr(s.CPUOptions.NestedVirtualization)
	}
	out.NestedVirtualization = keep(out.NestedVirtualization, prior.NestedVirtualization).(types.String)
	if c := s.ConnectionTracking; c != nil && (importing || prior.ConnectionTracking != nil) {
		out.ConnectionTracking = &connectionTrackingModel{TCPEstablished: ptrInt32(c.TCPEstablishedTimeout),
			UDPStream: ptrInt32(c.UDPStreamTimeout), UDP: ptrInt32(c.UDPTimeout)}
	}
	if g := s.PlacementGroupSelector; g != nil && (importing || !prior.PlacementGroupName.IsNull() || !prior.PlacementGroupID.IsNull()) {
		out.PlacementGroupName, out.PlacementGroupID = ptrStr(g.Name), ptrStr(g.ID)
	}
	if importing || prior.CapacityReservationSelector != nil {
		out.CapacityReservationSelector = make([]capacityReservationTermModel, len(s.CapacityReservationSelectorTerms))
		for i, t := range s.CapacityReservationSelectorTerms {
			out.CapacityReservationSelector[i] = capacityReservationTermModel{ID: optStr(t.ID), OwnerID: optStr(t.OwnerID),
				InstanceMatchCriteria: optStr(t.InstanceMatchCriteria),
				Tags:                  framework.AtomicMap(t.Tags, mapPrior(priorAt(prior.CapacityReservationSelector, i).Tags))}
		}
		if importing && len(out.CapacityReservationSelector) == 0 {
			out.CapacityReservationSelector = nil
		}
	}
	out.EFAInstanceType = prior.EFAInstanceType
	if nics, err := efaInterfaces(prior.EFAInstanceType.ValueString()); err == nil && !prior.EFAInstanceType.IsNull() &&
		!sameInterfaces(nics, s.NetworkInterfaces) {
		out.EFAInstanceType = types.StringNull() // changed outside Terraform: read as it is, and the plan lays it out again
		prior.NetworkInterfaces = []networkInterfaceModel{}
	}
	if importing || prior.NetworkInterfaces != nil {
		for _, n := range s.NetworkInterfaces {
			if n != nil {
				out.NetworkInterfaces = append(out.NetworkInterfaces, networkInterfaceModel{NetworkCardIndex: types.Int64Value(int64(n.NetworkCardIndex)),
					DeviceIndex: types.Int64Value(int64(n.DeviceIndex)), InterfaceType: types.StringValue(string(n.InterfaceType))})
			}
		}
		if out.NetworkInterfaces == nil && !importing {
			out.NetworkInterfaces = []networkInterfaceModel{}
		}
	}
	return out
}

// networkInterfacesValid checks two of the CRD's rules on networkInterfaces: one interface per card
// and device index, one efa-only per card. The CRD reports them on the list; naming the element
// takes the rule itself. Its rule that a primary interface is there is the validate engine's.
type networkInterfacesValid struct{}

func (networkInterfacesValid) Description(context.Context) string {
	return "no card and device index twice, at most one efa-only per card"
}

func (v networkInterfacesValid) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (networkInterfacesValid) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var nics []networkInterfaceModel
	if d := req.ConfigValue.ElementsAs(ctx, &nics, false); d.HasError() {
		return
	}
	type slot struct{ card, device int64 }
	seen, efa := map[slot]int{}, map[int64]int{}
	for i, n := range nics {
		if !known(n.NetworkCardIndex) || !known(n.DeviceIndex) || !known(n.InterfaceType) {
			return
		}
		s := slot{n.NetworkCardIndex.ValueInt64(), n.DeviceIndex.ValueInt64()}
		if j, dup := seen[s]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Invalid network interfaces", fmt.Sprintf(
				"network card %d, device %d is also element %d: each card and device index takes one interface", s.card, s.device, j))
		}
		seen[s] = i
		if n.InterfaceType.ValueString() == interfaceEFAOnly {
			if j, dup := efa[s.card]; dup {
				resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Invalid network interfaces", fmt.Sprintf(
					"network card %d has a second efa-only interface (the first is element %d): a card takes at most one", s.card, j))
			}
			efa[s.card] = i
		}
	}
}
