package provider

import (
	"context"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	fwschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Attributes that can hold a secret are Sensitive, so Terraform keeps them out of plan output.
func TestSchema_secretsAreSensitive(t *testing.T) {
	ctx := context.Background()
	p := &mlplatformProvider{}
	var resp fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &resp)
	exec := resp.Schema.Blocks["exec"].(fwschema.ListNestedBlock).NestedObject.Attributes
	providerSecrets := map[string]fwschema.Attribute{
		"password":   resp.Schema.Attributes["password"],
		"token":      resp.Schema.Attributes["token"],
		"client_key": resp.Schema.Attributes["client_key"],
		"proxy_url":  resp.Schema.Attributes["proxy_url"],
		"exec.env":   exec["env"],
	}
	for name, a := range providerSecrets {
		if !a.IsSensitive() {
			t.Errorf("provider attribute %s is not Sensitive", name)
		}
	}

	resourceSecrets := map[string]string{"mlplatform_node_class": "user_data"}
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mlplatform"}, &meta)
		attr, ok := resourceSecrets[meta.TypeName]
		if !ok {
			continue
		}
		delete(resourceSecrets, meta.TypeName)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		if a, ok := s.Schema.Attributes[attr]; !ok || !a.IsSensitive() {
			t.Errorf("%s.%s is missing or not Sensitive", meta.TypeName, attr)
		}
	}
	for typeName := range resourceSecrets {
		t.Errorf("no resource %s", typeName)
	}
}
