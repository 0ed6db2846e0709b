package simulation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// durationIn accepts a Go duration from least to most.
type durationIn struct{ least, most time.Duration }

func (v durationIn) Description(context.Context) string {
	return fmt.Sprintf("must be a Go duration from %s to %s", short(v.least), short(v.most))
}

func (v durationIn) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationIn) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration", fmt.Sprintf(
			"Attribute %s: %q is not a Go duration (e.g. 90m, 2h30m).", req.Path, s))
	case d < v.least || d > v.most:
		resp.Diagnostics.AddAttributeError(req.Path, "Duration out of range", fmt.Sprintf(
			"Attribute %s: %q is outside %s to %s.", req.Path, s, short(v.least), short(v.most)))
	}
}

// short writes a duration without its zero parts: 8784h, 1m, 24h.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
