package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var (
	unknownString = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	labelsType    = tftypes.Map{ElementType: tftypes.String}
)

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func labels(values map[string]tftypes.Value) tftypes.Value {
	return tftypes.NewValue(labelsType, values)
}

// configOf is a provider configuration with the given attributes set and every other one null.
func configOf(t *testing.T, set map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	ctx := context.Background()
	var resp fwprovider.SchemaResponse
	(&mlplatformProvider{}).Schema(ctx, fwprovider.SchemaRequest{}, &resp)
	typ := resp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, attrType := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(attrType, nil)
		if v, ok := set[name]; ok {
			values[name] = v
		}
	}
	return tfsdk.Config{Schema: resp.Schema, Raw: tftypes.NewValue(typ, values)}
}

func configure(t *testing.T, set map[string]tftypes.Value) (*framework.ProviderData, diag.Diagnostics) {
	t.Helper()
	var resp fwprovider.ConfigureResponse
	(&mlplatformProvider{}).Configure(t.Context(), fwprovider.ConfigureRequest{Config: configOf(t, set)}, &resp)
	data, _ := resp.ResourceData.(*framework.ProviderData)
	return data, resp.Diagnostics
}

// default_labels taken from another resource is unknown at plan; Configure must not fail on it
// but tell resources, which then plan labels_all as unknown.
func TestConfigure_unknownDefaultLabels(t *testing.T) {
	cases := map[string]tftypes.Value{
		"whole map":  tftypes.NewValue(labelsType, tftypes.UnknownValue),
		"one value":  labels(map[string]tftypes.Value{"team": str("research"), "cost": unknownString}),
		"only value": labels(map[string]tftypes.Value{"cost": unknownString}),
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			data, diags := configure(t, map[string]tftypes.Value{"host": str("https://x:6443"), "default_labels": value})
			if diags.HasError() {
				t.Fatal(diags)
			}
			if !data.DefaultLabelsUnknown || data.DefaultLabels != nil {
				t.Errorf("DefaultLabelsUnknown %v, DefaultLabels %v; want true and nil", data.DefaultLabelsUnknown, data.DefaultLabels)
			}
		})
	}
}

func TestConfigure_knownDefaultLabels(t *testing.T) {
	data, diags := configure(t, map[string]tftypes.Value{
		"host": str("https://x:6443"), "default_labels": labels(map[string]tftypes.Value{"cost": str("cc-1")}),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	if data.DefaultLabelsUnknown || data.DefaultLabels["cost"] != "cc-1" {
		t.Errorf("DefaultLabelsUnknown %v, DefaultLabels %v", data.DefaultLabelsUnknown, data.DefaultLabels)
	}
}

// An unknown field_manager defers the client like an unknown connection: plans of new objects
// still work, and any API call before apply says why it cannot be made.
func TestConfigure_unknownFieldManagerDefersClient(t *testing.T) {
	data, diags := configure(t, map[string]tftypes.Value{"host": str("https://127.0.0.1:9"), "field_manager": unknownString})
	if diags.HasError() {
		t.Fatal(diags)
	}
	configMaps := kube.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespaced: true}
	_, err := data.Client.Get(t.Context(), configMaps, "default", "x")
	if err == nil || !strings.Contains(err.Error(), "not known until apply") {
		t.Fatalf("err = %v, want the client deferred until apply", err)
	}
}
