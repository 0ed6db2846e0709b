package argo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/robfig/cron/v3"
)

var fuzzPath = path.Root("retry").AtName("backoff")

func accepts(t *testing.T, v validator.String, s string) bool {
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

// FuzzDuration: the duration validator never panics, accepts only a Go duration of whole seconds
// of at least its minimum, accepts it again in Go's canonical form, and names the attribute when
// it refuses.
func FuzzDuration(f *testing.F) {
	for _, s := range []string{"30s", "2m", "1h30m", "0s", "1s", "500ms", "1.5s", "-1s", "soon", "", "1d", "9999999999h", "1h0m0s", "01s"} {
		f.Add(s)
	}
	v := durationValidator{min: time.Second}
	f.Fuzz(func(t *testing.T, s string) {
		if !accepts(t, v, s) {
			return
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < time.Second || d%time.Second != 0 {
			t.Fatalf("%q accepted, but it is %v, %v", s, d, err)
		}
		if !accepts(t, v, d.String()) {
			t.Fatalf("%q accepted, but not %q", s, d.String())
		}
	})
}

// FuzzSchedule: the cron validator never panics, accepts only what Argo's cron parser
// (robfig/cron's standard parser) parses, never a timezone prefix, and names the attribute when
// it refuses.
func FuzzSchedule(f *testing.F) {
	for _, s := range []string{"0 2 * * 1-5", "@daily", "@every 6h", "CRON_TZ=UTC 0 2 * * *", "TZ=UTC @daily", "0 25 * * *",
		"every night", "", "* * * * * *", "*/5 * * * *", "0 0 31 2 *", "@every -1s", "0 0 * * 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !accepts(t, cronValidator{}, s) {
			return
		}
		if _, err := cron.ParseStandard(s); err != nil {
			t.Fatalf("%q accepted, but Argo's parser refuses it: %v", s, err)
		}
		if strings.Contains(s, "TZ=") {
			t.Fatalf("%q accepted with a timezone prefix", s)
		}
	})
}
