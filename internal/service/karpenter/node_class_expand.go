package karpenter

import (
	"context"
	"fmt"
	"maps"
	"time"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan sets tags_all, the EC2 tags to write, and refuses reserved keys that arrive through
// the provider's default_labels.
func (nodeClass) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var tags, billing types.Map
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("tags"), &tags)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("billing"), &billing)...)
	// A value known only at apply (tags = { owner = terraform_data.x.output }) leaves tags_all unknown.
	if !framework.FullyKnown(ctx, tags) || !framework.FullyKnown(ctx, billing) || p.DefaultLabelsUnknown {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tags_all"), types.MapUnknown(types.StringType))...)
		return
	}
	all := maps.Clone(p.DefaultLabels)
	if all == nil {
		all = map[string]string{}
	}
	maps.Copy(all, framework.StringMap(ctx, billing, &resp.Diagnostics))
	maps.Copy(all, framework.StringMap(ctx, tags, &resp.Diagnostics))
	for k := range p.DefaultLabels {
		if why := reservedTag(k); why != "" {
			resp.Diagnostics.AddError("Reserved tag key in default_labels",
				fmt.Sprintf("The provider's default_labels become EC2 tags, and key %q is refused: %s", k, why))
		}
	}
	tagsAll := types.MapNull(types.StringType) // as Flatten reads no tags back
	if len(all) > 0 {
		tagsAll = framework.MapValue(all)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tags_all"), tagsAll)...)
}

func strPtr(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := v.ValueInt64()
	return &i
}

func int32Ptr(v types.Int64) *int32 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := int32(v.ValueInt64())
	return &i
}

func (nodeClass) Expand(ctx context.Context, m *nodeClassModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := awsv1.EC2NodeClassSpec{
		Role:            m.Role.ValueString(),
		InstanceProfile: strPtr(m.InstanceProfile),
		AMIFamily:       strPtr(m.AMIFamily),
		Tags:            framework.StringMap(ctx, m.TagsAll, &diags),
	}
	userData, err := renderUserData(strPtr(m.UserData), m.NodeConfig)
	if err != nil {
		diags.AddAttributeError(path.Root("user_data"), "Cannot add node_config to user_data", err.Error())
	}
	spec.UserData = userData
	for _, t := range m.AMISelector {
		spec.AMISelectorTerms = append(spec.AMISelectorTerms, awsv1.AMISelectorTerm{
			Alias: t.Alias.ValueString(), ID: t.ID.ValueString(), Name: t.Name.ValueString(), Owner: t.Owner.ValueString(),
			SSMParameter: t.SSMParameter.ValueString(), Tags: framework.StringMap(ctx, t.Tags, &diags),
		})
	}
	for _, t := range m.SubnetSelector {
		spec.SubnetSelectorTerms = append(spec.SubnetSelectorTerms, awsv1.SubnetSelectorTerm{ID: t.ID.ValueString(), Tags: framework.StringMap(ctx, t.Tags, &diags)})
	}
	for _, t := range m.SecurityGroupSelector {
		spec.SecurityGroupSelectorTerms = append(spec.SecurityGroupSelectorTerms, awsv1.SecurityGroupSelectorTerm{
			ID: t.ID.ValueString(), Name: t.Name.ValueString(), Tags: framework.StringMap(ctx, t.Tags, &diags)})
	}
	for i, b := range m.BlockDevice {
		var size *apiresource.Quantity
		if !b.VolumeSize.IsNull() {
			q, err := framework.ParseQuantity(b.VolumeSize.ValueString())
			if err != nil {
				diags.AddAttributeError(path.Root("block_device").AtListIndex(i).AtName("volume_size"), "Invalid volume size", err.Error())
				continue
			}
			size = &q
		}
		spec.BlockDeviceMappings = append(spec.BlockDeviceMappings, &awsv1.BlockDeviceMapping{
			DeviceName: strPtr(b.DeviceName), RootVolume: b.RootVolume.ValueBool(),
			EBS: &awsv1.BlockDevice{VolumeSize: size, VolumeType: strPtr(b.VolumeType), IOPS: int64Ptr(b.IOPS),
				Throughput: int64Ptr(b.Throughput), Encrypted: boolPtr(b.Encrypted),
				DeleteOnTermination: boolPtr(b.DeleteOnTermination), KMSKeyID: strPtr(b.KMSKeyID),
				SnapshotID: strPtr(b.SnapshotID), VolumeInitializationRate: int32Ptr(b.InitializationRate)},
		})
	}
	if k := m.Kubelet; k != nil {
		spec.Kubelet = expandKubelet(ctx, k, &diags)
	}
	if o := m.MetadataOptions; o != nil {
		spec.MetadataOptions = &awsv1.MetadataOptions{HTTPEndpoint: strPtr(o.HTTPEndpoint), HTTPProtocolIPv6: strPtr(o.HTTPProtocolIPv6),
			HTTPPutResponseHopLimit: int64Ptr(o.HopLimit), HTTPTokens: strPtr(o.HTTPTokens)}
	}
	m.expandLaunch(ctx, &spec, &diags)
	obj := &awsv1.EC2NodeClass{
		ObjectMeta: metav1.ObjectMeta{Name: meta.Name, Labels: meta.Labels, Annotations: meta.Annotations},
		Spec:       spec,
	}
	body, err := framework.ApplyObject(obj, gvk(ec2NodeClassKind))
	if err != nil {
		diags.AddError("Encoding EC2NodeClass "+meta.Name, err.Error())
	}
	return body, diags
}

func optStr(s string) types.String { return framework.OptionalString(s) }

func ptrStr(s *string) types.String {
	if s == nil {
		return types.StringNull()
	}
	return types.StringValue(*s)
}

func ptrBool(b *bool) types.Bool {
	if b == nil {
		return types.BoolNull()
	}
	return types.BoolValue(*b)
}

func ptrInt64(i *int64) types.Int64 {
	if i == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*i)
}

func ptrInt32(i *int32) types.Int64 {
	if i == nil {
		return types.Int64Null()
	}
	return types.Int64Value(int64(*i))
}

// priorAt returns the prior element at i, or the zero model (all nulls) beyond it.
func priorAt[T any](prior []T, i int) (t T) {
	if i < len(prior) {
		return prior[i]
	}
	return t
}

func mapPrior(v types.Map) types.Map {
	if v.ElementType(context.Background()) == nil {
		return types.MapNull(types.StringType)
	}
	return v
}

func (nodeClass) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *nodeClassModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.WaitForReady.IsNull() { // imported: the attribute's default
		m.WaitForReady = types.BoolValue(false)
	}
	var nc awsv1.EC2NodeClass
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &nc); err != nil {
		diags.AddError("Decoding EC2NodeClass "+obj.GetName(), err.Error())
		return diags
	}
	s := nc.Spec
	m.Role, m.InstanceProfile = optStr(s.Role), ptrStr(s.InstanceProfile)
	m.AMIFamily = ptrStr(s.AMIFamily)
	m.UserData, m.NodeConfig = flattenUserData(s.UserData, m.UserData, m.NodeConfig)
	amis := make([]amiTermModel, len(s.AMISelectorTerms))
	for i, t := range s.AMISelectorTerms {
		amis[i] = amiTermModel{Alias: optStr(t.Alias), ID: optStr(t.ID), Name: optStr(t.Name), Owner: optStr(t.Owner),
			SSMParameter: optStr(t.SSMParameter), Tags: framework.AtomicMap(t.Tags, mapPrior(priorAt(m.AMISelector, i).Tags))}
	}
	m.AMISelector = amis
	subnets := make([]subnetTermModel, len(s.SubnetSelectorTerms))
	for i, t := range s.SubnetSelectorTerms {
		subnets[i] = subnetTermModel{ID: optStr(t.ID), Tags: framework.AtomicMap(t.Tags, mapPrior(priorAt(m.SubnetSelector, i).Tags))}
	}
	m.SubnetSelector = subnets
	sgs := make([]selectorTermModel, len(s.SecurityGroupSelectorTerms))
	for i, t := range s.SecurityGroupSelectorTerms {
		sgs[i] = selectorTermModel{ID: optStr(t.ID), Name: optStr(t.Name), Tags: framework.AtomicMap(t.Tags, mapPrior(priorAt(m.SecurityGroupSelector, i).Tags))}
	}
	m.SecurityGroupSelector = sgs
	m.BlockDevice = flattenBlockDevices(s.BlockDeviceMappings, m.BlockDevice)
	m.Kubelet = flattenKubelet(ctx, s.Kubelet, m.Kubelet, &diags)
	m.launchModel = flattenLaunch(s, m.launchModel, importing)
	if o := s.MetadataOptions; o != nil && (m.MetadataOptions != nil || importing) {
		m.MetadataOptions = &metadataOptionsModel{HTTPEndpoint: ptrStr(o.HTTPEndpoint), HTTPProtocolIPv6: ptrStr(o.HTTPProtocolIPv6),
			HopLimit: ptrInt64(o.HTTPPutResponseHopLimit), HTTPTokens: ptrStr(o.HTTPTokens)}
	}
	// Tags: tags_all is every live tag; tags and billing keep the keys they manage, so a tag
	// changed or removed outside Terraform shows as drift. Imported, every tag is in tags.
	m.TagsAll = framework.AtomicMap(s.Tags, types.MapNull(types.StringType))
	m.Tags = framework.ManagedMap(ctx, s.Tags, mapPrior(m.Tags), importing, &diags)
	if importing {
		m.Billing = types.MapNull(types.StringType)
	} else {
		m.Billing = framework.ManagedMap(ctx, s.Tags, mapPrior(m.Billing), false, &diags)
	}
	return diags
}

func flattenBlockDevices(in []*awsv1.BlockDeviceMapping, prior []blockDeviceModel) []blockDeviceModel {
	if len(in) == 0 {
		if prior == nil {
			return nil
		}
		return []blockDeviceModel{}
	}
	out := make([]blockDeviceModel, 0, len(in))
	for i, b := range in {
		p := priorAt(prior, i)
		d := blockDeviceModel{DeviceName: ptrStr(b.DeviceName), RootVolume: types.BoolNull(), VolumeSize: types.StringNull(),
			VolumeType: types.StringNull(), IOPS: types.Int64Null(), Throughput: types.Int64Null(), Encrypted: types.BoolNull(),
			DeleteOnTermination: types.BoolNull(), KMSKeyID: types.StringNull(), SnapshotID: types.StringNull(), InitializationRate: types.Int64Null()}
		if b.RootVolume || (known(p.RootVolume) && !p.RootVolume.ValueBool()) {
			d.RootVolume = types.BoolValue(b.RootVolume)
		}
		if e := b.EBS; e != nil {
			if e.VolumeSize != nil {
				d.VolumeSize = types.StringValue(e.VolumeSize.String())
				if q, err := framework.ParseQuantity(p.VolumeSize.ValueString()); err == nil && q.Cmp(*e.VolumeSize) == 0 {
					d.VolumeSize = p.VolumeSize
				}
			}
			d.VolumeType, d.IOPS, d.Throughput = ptrStr(e.VolumeType), ptrInt64(e.IOPS), ptrInt64(e.Throughput)
			d.Encrypted, d.DeleteOnTermination, d.KMSKeyID = ptrBool(e.Encrypted), ptrBool(e.DeleteOnTermination), ptrStr(e.KMSKeyID)
			d.SnapshotID, d.InitializationRate = ptrStr(e.SnapshotID), ptrInt32(e.VolumeInitializationRate)
		}
		out = append(out, d)
	}
	return out
}

// flattenGracePeriods reads soft eviction grace periods, keeping the configured spelling of each
// that means the same duration (90s for 1m30s).
func flattenGracePeriods(in map[string]metav1.Duration, prior types.Map) types.Map {
	if len(in) == 0 {
		return framework.AtomicMap(nil, prior)
	}
	configured := map[string]string{}
	if !prior.IsNull() && !prior.IsUnknown() {
		_ = prior.ElementsAs(context.Background(), &configured, false)
	}
	out := map[string]string{}
	for signal, d := range in {
		out[signal] = d.Duration.String()
		if c, err := time.ParseDuration(configured[signal]); err == nil && c == d.Duration {
			out[signal] = configured[signal]
		}
	}
	return framework.AtomicMap(out, prior)
}
