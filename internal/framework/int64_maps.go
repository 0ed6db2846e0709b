package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Int64MapValue converts a Go map to a Terraform map of numbers; nil becomes null.
func Int64MapValue(m map[string]int64) types.Map {
	if m == nil {
		return types.MapNull(types.Int64Type)
	}
	v, _ := types.MapValueFrom(context.Background(), types.Int64Type, m)
	return v
}

// Int64MapOf converts a Terraform map of numbers to a Go map; null and unknown become nil.
func Int64MapOf(ctx context.Context, v types.Map, diags *diag.Diagnostics) map[string]int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := map[string]int64{}
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	return out
}

// AtomicInt64Map is AtomicMap for maps of numbers: every live entry, and an empty map keeps
// prior's null-or-empty shape.
func AtomicInt64Map(live map[string]int64, prior types.Map) types.Map {
	if len(live) == 0 && prior.IsNull() {
		return types.MapNull(types.Int64Type)
	}
	if len(live) == 0 {
		return Int64MapValue(map[string]int64{})
	}
	return Int64MapValue(live)
}
