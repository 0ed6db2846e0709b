package karpenter

import (
	"context"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

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
