package argo

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// durationValidator accepts a Go duration (`30s`, `2m`) of at least min.
type durationValidator struct{ min time.Duration }

func (v durationValidator) Description(context.Context) string {
	return fmt.Sprintf("must be a duration such as `30s` or `2m`, at least %s", v.min)
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d < v.min || d%time.Second != 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value", fmt.Sprintf(
			"Attribute %s: %q is not a duration of whole seconds such as `30s` or `2m`, at least %s", req.Path, req.ConfigValue.ValueString(), v.min))
	}
}
