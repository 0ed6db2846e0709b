package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The schema's validator cannot see KUBE_* variables, so Configure refuses the pair too.
func TestConfigure_insecureWithCAFromEnvironment(t *testing.T) {
	t.Setenv("KUBE_CLUSTER_CA_CERT_DATA", "-----BEGIN CERTIFICATE-----")
	cases := map[string]map[string]tftypes.Value{
		"both from the environment": {},
		"insecure attribute":        {"insecure": tftypes.NewValue(tftypes.Bool, true)},
	}
	for name, set := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KUBE_INSECURE", "true")
			set["host"] = str("https://x:6443")
			_, diags := configure(t, set)
			if !hasAttributeError(diags, "insecure", "cluster_ca_certificate") {
				t.Fatalf("diagnostics = %v; want an error on insecure naming cluster_ca_certificate", diags)
			}
		})
	}
}

func TestInsecureWithCA(t *testing.T) {
	boolean := func(b bool) tftypes.Value { return tftypes.NewValue(tftypes.Bool, b) }
	cases := map[string]struct {
		set      map[string]tftypes.Value
		conflict bool
	}{
		"insecure and CA":         {map[string]tftypes.Value{"insecure": boolean(true), "cluster_ca_certificate": str("pem")}, true},
		"insecure and unknown CA": {map[string]tftypes.Value{"insecure": boolean(true), "cluster_ca_certificate": unknownString}, true},
		"insecure = false and CA": {map[string]tftypes.Value{"insecure": boolean(false), "cluster_ca_certificate": str("pem")}, false},
		"unknown insecure and CA": {map[string]tftypes.Value{"insecure": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), "cluster_ca_certificate": str("pem")}, false},
		"insecure alone":          {map[string]tftypes.Value{"insecure": boolean(true)}, false},
		"CA alone":                {map[string]tftypes.Value{"cluster_ca_certificate": str("pem")}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var resp fwprovider.ValidateConfigResponse
			insecureWithCA{}.ValidateProvider(t.Context(), fwprovider.ValidateConfigRequest{Config: configOf(t, tc.set)}, &resp)
			if got := hasAttributeError(resp.Diagnostics, "insecure", "cluster_ca_certificate"); got != tc.conflict {
				t.Errorf("conflict reported: %v, want %v (%v)", got, tc.conflict, resp.Diagnostics)
			}
		})
	}
}

// hasAttributeError reports whether diags has an error on attribute attr whose text names other.
func hasAttributeError(diags diag.Diagnostics, attr, other string) bool {
	for _, d := range diags.Errors() {
		withPath, ok := d.(diag.DiagnosticWithPath)
		if ok && withPath.Path().Equal(path.Root(attr)) && strings.Contains(d.Detail(), other) {
			return true
		}
	}
	return false
}
