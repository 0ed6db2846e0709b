package monitoring

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/prometheus/common/model"
)

// FuzzPromDuration: the Prometheus duration validator never panics, accepts only what Prometheus
// parses as a positive whole number of seconds, accepts Prometheus' canonical form of it too, and
// names the attribute when it refuses.
func FuzzPromDuration(f *testing.F) {
	for _, s := range []string{"30s", "10m", "1h30m", "2d", "1w", "1y", "0s", "1500ms", "1 hour", "", "-1s", "1h1h", "5m30s", "999999999999y"} {
		f.Add(s)
	}
	at := path.Root("admission_wait_slo_per_queue").AtMapKey("research")
	accepts := func(t *testing.T, s string) bool {
		var resp validator.StringResponse
		promDuration().ValidateString(context.Background(), validator.StringRequest{Path: at, ConfigValue: types.StringValue(s)}, &resp)
		for _, d := range resp.Diagnostics {
			wp, ok := d.(diag.DiagnosticWithPath)
			if !ok || !wp.Path().Equal(at) || !strings.Contains(d.Detail(), at.String()) {
				t.Fatalf("%q: a refusal not on, or not naming, %s: %s: %s", s, at, d.Summary(), d.Detail())
			}
		}
		return !resp.Diagnostics.HasError()
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !accepts(t, s) {
			return
		}
		d, err := model.ParseDuration(s)
		if err != nil || d <= 0 || time.Duration(d)%time.Second != 0 {
			t.Fatalf("%q accepted, but Prometheus parses it as %v, %v", s, d, err)
		}
		if !accepts(t, d.String()) {
			t.Fatalf("%q accepted, but not Prometheus' own form %q", s, d.String())
		}
	})
}
