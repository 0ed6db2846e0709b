package karpenter

import (
	"context"
	"time"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

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
