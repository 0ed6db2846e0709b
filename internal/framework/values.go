package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// OptionalString maps an omitted (empty) string of the API to null, as an unset optional
// attribute reads.
func OptionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// MapValue converts a Go map to a Terraform map of strings; nil becomes null.
func MapValue(m map[string]string) types.Map {
	if m == nil {
		return types.MapNull(types.StringType)
	}
	v, _ := types.MapValueFrom(context.Background(), types.StringType, m)
	return v
}

// FullyKnown reports whether v and every value inside it are known. A map with one value taken
// from another resource (tags = { owner = terraform_data.x.output }) is a known map at plan, but
// its values can be read into Go only once that value is known.
func FullyKnown(ctx context.Context, v attr.Value) bool {
	tv, err := v.ToTerraformValue(ctx)
	return err == nil && tv.IsFullyKnown()
}

// StringMap converts a Terraform map of strings to a Go map; null becomes nil. A map that is not
// FullyKnown becomes nil too: at plan, ask FullyKnown first and plan what derives from it unknown.
func StringMap(ctx context.Context, v types.Map, diags *diag.Diagnostics) map[string]string {
	if v.IsNull() || !FullyKnown(ctx, v) {
		return nil
	}
	out := map[string]string{}
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	return out
}

// ManagedMap is the value to record for a granular map (such as metadata.labels) read back from
// the cluster: the live entries whose keys Terraform manages (those in prior), so that keys other
// tools add cause no diff while a managed key changed or removed outside Terraform shows as
// drift. When importing, every live entry is taken.
func ManagedMap(ctx context.Context, live map[string]string, prior types.Map, importing bool, diags *diag.Diagnostics) types.Map {
	if importing {
		return AtomicMap(live, types.MapNull(types.StringType))
	}
	out := map[string]string{}
	for k := range StringMap(ctx, prior, diags) {
		if v, ok := live[k]; ok {
			out[k] = v
		}
	}
	return AtomicMap(out, prior)
}

// AtomicMap is the value to record for a map the API replaces as a whole (x-kubernetes-map-type:
// atomic): every live entry, since the next apply replaces them all. An empty map keeps prior's
// null-or-empty shape, so `{}` in configuration and an omitted attribute both read back clean.
func AtomicMap(live map[string]string, prior types.Map) types.Map {
	if len(live) == 0 && prior.IsNull() {
		return types.MapNull(types.StringType)
	}
	if len(live) == 0 {
		return MapValue(map[string]string{})
	}
	return MapValue(live)
}

var objectAsOptions = basetypes.ObjectAsOptions{}
