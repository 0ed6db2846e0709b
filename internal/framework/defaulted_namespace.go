package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"k8s.io/apimachinery/pkg/util/validation"
)

// NamespaceWithDefault is the `namespace` attribute of a namespaced resource whose objects
// usually live in one namespace (e.g. the GPU Operator's ConfigMaps in `gpu-operator`): it
// replaces the required one from NamespacedMetadataAttributes.
func NamespaceWithDefault(kind, namespace string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		Default:  stringdefault.StaticString(namespace),
		MarkdownDescription: "Namespace of the " + kind + "; it must exist. Defaults to `" + namespace +
			"`. Changing it replaces the object.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:    []validator.String{DNSLabel()},
	}
}

// ConfigMapKey accepts what Kubernetes accepts as a key of a ConfigMap's data.
func ConfigMapKey() validator.String {
	return k8sString{"a valid ConfigMap key (letters, digits, '-', '_' and '.', at most 253 characters)", validation.IsConfigMapKey}
}
