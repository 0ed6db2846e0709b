package karpenter

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// A pool's node class copy must carry its node_class's current spec, billing tags added.
// mlplatform_node_class rewrites the copies when Terraform applies it, but an EC2NodeClass changed
// outside Terraform (kubectl edit, or a class no Terraform manages) leaves them stale, and so does
// an edit of the copy itself. So Read compares the copy with its base and records the answer in
// node_class_copy_in_sync, which the plan always wants true: a stale copy shows as an update of
// the pool, whose apply rewrites the copy from the base as it is then.

const attrCopyInSync = "node_class_copy_in_sync"

func copyInSyncAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true,
		MarkdownDescription: "With `billing`: whether the pool's copy of `node_class` carries the node class's current spec " +
			"with the billing tags added; null without `billing`. A refresh sets it `false` when either EC2NodeClass was " +
			"changed outside Terraform (e.g. `kubectl edit` of the node class's AMI selector, subnets, kubelet or tags), " +
			"and the plan always wants `true`, so the pool shows an update whose apply rewrites the copy from the node class."}
}

// flattenCopyInSync sets node_class_copy_in_sync from the copy the NodePools launch with (nil
// when they launch with node_class itself). m.Billing still holds the prior value.
func flattenCopyInSync(ctx context.Context, c *kube.Client, copied *unstructured.Unstructured, m *gpuNodePoolModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if copied == nil {
		m.NodeClassCopyInSync = types.BoolNull()
		if len(m.Billing.Elements()) > 0 {
			m.NodeClassCopyInSync = types.BoolValue(false) // the copy is gone
		}
		return diags
	}
	baseName := copied.GetAnnotations()[AnnotationCopyOf]
	base, err := c.Get(ctx, ec2NodeClassKind, "", baseName)
	if kube.IsNotFound(err) {
		// Nothing to copy from: the update this plans says so.
		m.NodeClassCopyInSync = types.BoolValue(false)
		return diags
	}
	if err != nil {
		diags.AddError("Reading EC2NodeClass "+baseName+", which GPU node pool "+copied.GetName()+" copies", err.Error())
		return diags
	}
	m.NodeClassCopyInSync = types.BoolValue(copyInSync(copied, base))
	return diags
}

// copyInSync reports whether the copy's spec is base's with the copy's billing tags added.
func copyInSync(copied, base *unstructured.Unstructured) bool {
	billing := map[string]string{}
	if err := json.Unmarshal([]byte(copied.GetAnnotations()[AnnotationBillingTags]), &billing); err != nil {
		return false
	}
	want, err := nodeClassCopy(base, copied.GetName(), billing, nil)
	if err != nil {
		return false
	}
	// JSON, because the wanted spec holds typed maps where the live one holds map[string]any.
	a, errA := json.Marshal(want["spec"])
	b, errB := json.Marshal(copied.Object["spec"])
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// planCopyInSync plans node_class_copy_in_sync: true whenever the pool has billing, so that a
// copy Read found stale shows as a change.
func planCopyInSync(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var billing types.Map
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("billing"), &billing)...); resp.Diagnostics.HasError() {
		return
	}
	v := types.BoolNull()
	switch {
	case billing.IsUnknown():
		v = types.BoolUnknown()
	case len(billing.Elements()) > 0:
		v = types.BoolValue(true)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(attrCopyInSync), v)...)
}
