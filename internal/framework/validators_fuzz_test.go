package framework

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

// fuzzPath is the attribute the fuzz tests validate: a nested one, as most are.
var fuzzPath = path.Root("node_taints").AtListIndex(0).AtName("key")

// validateString runs v on s at fuzzPath and checks what every plan-time refusal must be: an
// error on that attribute whose detail names it. It reports whether s was accepted.
func validateString(t *testing.T, v validator.String, s string) bool {
	t.Helper()
	var resp validator.StringResponse
	v.ValidateString(context.Background(), validator.StringRequest{Path: fuzzPath, ConfigValue: types.StringValue(s)}, &resp)
	for _, d := range resp.Diagnostics {
		wp, ok := d.(diag.DiagnosticWithPath)
		if !ok || !wp.Path().Equal(fuzzPath) || !strings.Contains(d.Detail(), fuzzPath.String()) {
			t.Fatalf("%q: a refusal not on, or not naming, %s: %s: %s", s, fuzzPath, d.Summary(), d.Detail())
		}
	}
	return !resp.Diagnostics.HasError()
}

// FuzzKubernetesNames: the name, label and key validators never panic, accept exactly what
// apimachinery's validation (the API server's) accepts, and name the attribute when they refuse.
func FuzzKubernetesNames(f *testing.F) {
	for _, s := range []string{
		"", "a", "nvidia.com/gpu", "mlplatform.io/team", "karpenter.sh/capacity-type", "Bad_Name", "bad key",
		"a/b/c", "-x-", "x.", "/x", "x/", strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 253), strings.Repeat("a.", 127), "ünïcode", "a\x00b", "A-Z_0.9",
	} {
		f.Add(s)
	}
	checks := []struct {
		v      validator.String
		server func(string) []string
	}{
		{QualifiedName(), validation.IsQualifiedName},
		{LabelValue(), validation.IsValidLabelValue},
		{DNSSubdomain(), validation.IsDNS1123Subdomain},
		{DNSLabel(), validation.IsDNS1123Label},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range checks {
			if got, want := validateString(t, c.v, s), len(c.server(s)) == 0; got != want {
				t.Fatalf("%s %q: accepted %v, the API server's check %v", c.v.Description(context.Background()), s, got, want)
			}
		}
	})
}
