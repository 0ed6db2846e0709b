package framework

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"k8s.io/apimachinery/pkg/util/validation"
)

// k8sString is a string validator backed by one of apimachinery's validation functions, so the
// provider refuses at plan exactly what the API server would.
type k8sString struct {
	what  string
	check func(string) []string
}

func (v k8sString) Description(context.Context) string         { return "must be " + v.what }
func (v k8sString) MarkdownDescription(context.Context) string { return "must be " + v.what }

func (v k8sString) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if errs := v.check(req.ConfigValue.ValueString()); len(errs) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("Attribute %s: %q is not %s: %s", req.Path, req.ConfigValue.ValueString(), v.what, strings.Join(errs, "; ")))
	}
}

// DNSSubdomain accepts what Kubernetes accepts as an object name (RFC 1123 subdomain).
func DNSSubdomain() validator.String {
	return k8sString{"a valid Kubernetes name (RFC 1123 subdomain: lower-case letters, digits, '-' and '.', at most 253 characters, starting and ending with a letter or digit)", validation.IsDNS1123Subdomain}
}

// DNSLabel accepts an RFC 1123 label, e.g. a namespace name.
func DNSLabel() validator.String {
	return k8sString{"a valid RFC 1123 label (lower-case letters, digits and '-', at most 63 characters, starting and ending with a letter or digit)", validation.IsDNS1123Label}
}

// QualifiedName accepts a label or annotation key, or a taint or toleration key.
func QualifiedName() validator.String {
	return k8sString{"a valid Kubernetes key (an optional DNS subdomain prefix and '/', then a name of at most 63 characters of letters, digits, '-', '_' and '.')", validation.IsQualifiedName}
}

// LabelValue accepts a label value.
func LabelValue() validator.String {
	return k8sString{"a valid Kubernetes label value (empty, or at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit)", validation.IsValidLabelValue}
}

// LabelMapValidators check the keys and values of a label map.
func LabelMapValidators(extra ...validator.Map) []validator.Map {
	return append([]validator.Map{
		mapvalidator.KeysAre(QualifiedName()),
		mapvalidator.ValueStringsAre(LabelValue()),
	}, extra...)
}

// NotMark refuses the annotation keys the provider writes itself to mark what it owns.
func NotMark() validator.String {
	return k8sString{"an annotation the configuration may set: the provider writes " + OwnerAnnotation + ", " +
		OwnerIDAnnotation + " and " + keyClaimPrefix + "* itself", func(key string) []string {
		if isMarkAnnotation(key) {
			return []string{"reserved"}
		}
		return nil
	}}
}
