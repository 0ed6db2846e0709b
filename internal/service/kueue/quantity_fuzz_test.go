package kueue

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

var quotaPath = path.Root("resource_group").AtListIndex(0).AtName("flavor").AtListIndex(0).
	AtName("resource").AtListIndex(0).AtName("nominal_quota")

// validQuantity runs an attribute's validators on s, as the framework does.
func validQuantity(t *testing.T, validators []validator.String, s string) bool {
	t.Helper()
	var resp validator.StringResponse
	for _, v := range validators {
		v.ValidateString(context.Background(), validator.StringRequest{Path: quotaPath, ConfigValue: types.StringValue(s)}, &resp)
	}
	for _, d := range resp.Diagnostics {
		wp, ok := d.(diag.DiagnosticWithPath)
		if !ok || !wp.Path().Equal(quotaPath) || !strings.Contains(d.Detail(), quotaPath.String()) {
			t.Fatalf("%q: a refusal not on, or not naming, %s: %s: %s", s, quotaPath, d.Summary(), d.Detail())
		}
	}
	return !resp.Diagnostics.HasError()
}

// FuzzQuantity: the quota and fair-sharing validators never panic, accept only what the API
// server parses as a non-negative quantity, accept the server's canonical form of what they
// accept (so a value read back never turns invalid), and name the attribute when they refuse.
func FuzzQuantity(f *testing.F) {
	for _, s := range []string{"0", "1", "15", "500m", "256Gi", "1e3", "1.5", "-1", "lots", "1n", "0.5n", "1Ki", "1.5.3",
		"1e", "9223372036854775807", "1e400", "+1", " 1", "1 ", "0x10", "1E3", "100M", "2160Gi", "", "1e40980098", "1e-40980098"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range [][]validator.String{{framework.Quantity()}, fairSharingWeight()} {
			if !validQuantity(t, v, s) {
				continue
			}
			q, err := resource.ParseQuantity(s)
			if err != nil || q.Sign() < 0 {
				t.Fatalf("%q accepted, but the API server parses it as %v, %v", s, q.String(), err)
			}
			if !validQuantity(t, v, q.String()) {
				t.Fatalf("%q accepted, but not its canonical form %q", s, q.String())
			}
		}
	})
}

// TestFairSharingWeightNearOneNano: the weight's minimum is exact at 10^-9, and a huge exponent
// either way is decided at once (FuzzQuantity found "1e40980098" taking minutes).
func TestFairSharingWeightNearOneNano(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "1n": false, "0.5n": false, "1000000000000000000001e-30": true, "999999999999999999999e-30": false,
		"2n": true, "1e-40980098": false, "1e40980098": false, "1e-1000": false, "1e1000": true, "1": true,
	} {
		if got := validQuantity(t, fairSharingWeight(), s); got != want {
			t.Errorf("%q accepted: %v, want %v", s, got, want)
		}
	}
}
