package argo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/robfig/cron/v3"
)

// cronValidator accepts a schedule as Argo's cron controller parses it: robfig/cron's standard
// parser (five fields, or a descriptor such as `@daily` or `@every 6h`). The timezone is its own
// attribute: Argo prefixes the schedule with CRON_TZ=<timezone>, so a prefix here would be a
// second one.
type cronValidator struct{}

func (cronValidator) Description(context.Context) string {
	return "must be a cron schedule of five fields (`0 2 * * *`) or a descriptor (`@daily`, `@every 6h`), without a timezone prefix"
}

func (v cronValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (cronValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkSchedule(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid cron schedule", fmt.Sprintf("Attribute %s: %v", req.Path, err))
	}
}

func checkSchedule(s string) error {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "CRON_TZ=") || strings.HasPrefix(t, "TZ=") {
		return fmt.Errorf("%q carries a timezone; set it in `timezone` instead", s)
	}
	if _, err := cron.ParseStandard(s); err != nil {
		return fmt.Errorf("%q is not a cron schedule: %w", s, err)
	}
	return nil
}

// timezoneValidator accepts an IANA timezone name (`Europe/Berlin`, `UTC`), as time.LoadLocation
// loads it. `Local` is refused: it would be the Argo controller's local time, not a known zone.
type timezoneValidator struct{}

func (timezoneValidator) Description(context.Context) string {
	return "must be an IANA timezone name such as `Europe/Berlin` or `UTC`"
}

func (v timezoneValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timezoneValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkTimezone(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timezone", fmt.Sprintf("Attribute %s: %v", req.Path, err))
	}
}

func checkTimezone(tz string) error {
	if tz == "" || tz == "Local" {
		return fmt.Errorf("%q is not an IANA timezone name such as `Europe/Berlin` or `UTC`", tz)
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return fmt.Errorf("%q is not an IANA timezone name such as `Europe/Berlin` or `UTC`: %w", tz, err)
	}
	return nil
}
