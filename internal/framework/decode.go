package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Decode reads a live object of kind as upstream's typed object into out, for a Spec's Flatten. An
// object the type cannot hold is an error diagnostic naming it.
func Decode(obj *unstructured.Unstructured, kind string, out any, diags *diag.Diagnostics) bool {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, out); err != nil {
		name := obj.GetName()
		if ns := obj.GetNamespace(); ns != "" {
			name = ns + "/" + name
		}
		diags.AddError("Decoding "+kind+" "+name, err.Error())
		return false
	}
	return true
}
