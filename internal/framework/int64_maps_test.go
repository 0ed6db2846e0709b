package framework

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestInt64Maps(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	v := Int64MapValue(map[string]int64{"1g.10gb": 7})
	if got := Int64MapOf(ctx, v, &diags); got["1g.10gb"] != 7 || len(got) != 1 || diags.HasError() {
		t.Errorf("round trip: %v %v", got, diags)
	}
	if !Int64MapValue(nil).IsNull() || Int64MapOf(ctx, types.MapUnknown(types.Int64Type), &diags) != nil {
		t.Error("nil and unknown must map to null and nil")
	}
	null, empty := types.MapNull(types.Int64Type), Int64MapValue(map[string]int64{})
	if !AtomicInt64Map(nil, null).IsNull() {
		t.Error("no live entries with a null prior must stay null")
	}
	if got := AtomicInt64Map(map[string]int64{}, empty); got.IsNull() || len(got.Elements()) != 0 {
		t.Errorf("no live entries with an empty prior must stay empty, got %v", got)
	}
	if got := AtomicInt64Map(map[string]int64{"a": 1}, null); len(got.Elements()) != 1 {
		t.Errorf("live entries are all taken, got %v", got)
	}
}
