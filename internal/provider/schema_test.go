package provider

import (
	"context"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	fwschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
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

// Every resource type name fits the room an instance's field manager leaves it
// (<field_manager>:<type>:<instance id>, at most 128 characters).
func TestSchema_typeNamesFitFieldManagers(t *testing.T) {
	ctx := context.Background()
	p := &mlplatformProvider{}
	for _, newResource := range p.Resources(ctx) {
		var meta resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mlplatform"}, &meta)
		if suffix := strings.TrimPrefix(meta.TypeName, framework.ResourceTypePrefix); len(suffix) > framework.MaxTypeSuffixLength {
			t.Errorf("%s: %d characters after the prefix, more than framework.MaxTypeSuffixLength (%d)", meta.TypeName, len(suffix), framework.MaxTypeSuffixLength)
		}
	}
}
