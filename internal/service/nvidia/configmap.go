package nvidia

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// What the two GPU Operator ConfigMap resources share: metadata attributes with the operator's
// namespace as default, and the ConfigMap written and read back.

// configMapAttributes are the metadata attributes of a ConfigMap resource. A non-empty
// defaultName makes `name` optional with that default.
func configMapAttributes(what, defaultName string) map[string]schema.Attribute {
	attrs := framework.NamespacedMetadataAttributes(what)
	attrs["namespace"] = framework.NamespaceWithDefault(what, gpuOperatorNamespace)
	if defaultName != "" {
		attrs["name"] = schema.StringAttribute{
			Optional:            true,
			Computed:            true,
			Default:             stringdefault.StaticString(defaultName),
			MarkdownDescription: "Name of the " + what + "; defaults to `" + defaultName + "`. Changing it replaces the object.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators:          []validator.String{framework.DNSSubdomain()},
		}
	}
	return attrs
}

// applyConfigMap is the ConfigMap to apply: the computed metadata and the data keys Terraform
// manages. Keys other managers add to the same ConfigMap are left alone.
func applyConfigMap(meta framework.ObjectMeta, data map[string]string) *corev1ac.ConfigMapApplyConfiguration {
	return corev1ac.ConfigMap(meta.Name, meta.Namespace).
		WithLabels(meta.Labels).
		WithAnnotations(meta.Annotations).
		WithData(data)
}

// configMapData is the data of a live ConfigMap.
func configMapData(obj *unstructured.Unstructured) (map[string]string, diag.Diagnostics) {
	var diags diag.Diagnostics
	var cm corev1.ConfigMap
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &cm); err != nil {
		diags.AddError("Decoding ConfigMap "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
	}
	return cm.Data, diags
}

// optionalBool is what to record for an optional flag the file omits or writes as false: null
// when the configuration left it out, so that omitting it and `false` both read back clean.
func optionalBool(live bool, prior types.Bool) types.Bool {
	if !live && prior.IsNull() {
		return types.BoolNull()
	}
	return types.BoolValue(live)
}

// sharedConfigMapNote ends the description of both ConfigMap resources.
const sharedConfigMapNote = "\n\nThe resource owns the keys it declares, not the ConfigMap, which the GPU Operator's chart or " +
	"other resources may write to as well: it writes its keys under a server-side apply field manager of its own, " +
	"refuses a key that someone else wrote (import the ConfigMap to take its keys over), removes only its own keys on " +
	"destroy, and deletes the ConfigMap only when it created it and nothing else is left in it. Two resources that " +
	"declare the same key of one ConfigMap are refused at plan."

// The two ConfigMap resources own keys of a ConfigMap that the GPU Operator, other resources or
// other tools may write to as well (framework.KeyOwner).
var (
	_ framework.KeyOwner = migConfig{}
	_ framework.KeyOwner = timeSlicingConfig{}
)

// PlannedKeys is the one key mig-parted reads.
func (migConfig) PlannedKeys(context.Context, tfsdk.Plan) ([]string, bool, diag.Diagnostics) {
	return []string{migPartedKey}, true, nil
}

// PlannedKeys are the config names: one key each.
func (timeSlicingConfig) PlannedKeys(ctx context.Context, plan tfsdk.Plan) ([]string, bool, diag.Diagnostics) {
	var configs types.Map
	diags := plan.GetAttribute(ctx, path.Root("configs"), &configs)
	if configs.IsUnknown() || diags.HasError() {
		return nil, false, diags
	}
	return slices.Collect(maps.Keys(configs.Elements())), true, diags
}
