package framework

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// NoNullElements refuses a null element in a map, list or set (`configs = { x = null }`, which
// Terraform passes on, and which no object can carry): framework-validators' NoNullValues, with
// the attribute named in the error as the provider's other errors name it.
func NoNullElements() noNullElements { return noNullElements{} }

type noNullElements struct{}

func (noNullElements) Description(context.Context) string {
	return "every element must be set: a null element is refused"
}

func (v noNullElements) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (noNullElements) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	var inner validator.MapResponse
	mapvalidator.NoNullValues().ValidateMap(ctx, req, &inner)
	resp.Diagnostics.Append(naming(req.Path, inner.Diagnostics)...)
}

func (noNullElements) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	var inner validator.ListResponse
	listvalidator.NoNullValues().ValidateList(ctx, req, &inner)
	resp.Diagnostics.Append(naming(req.Path, inner.Diagnostics)...)
}

func (noNullElements) ValidateSet(ctx context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	var inner validator.SetResponse
	setvalidator.NoNullValues().ValidateSet(ctx, req, &inner)
	resp.Diagnostics.Append(naming(req.Path, inner.Diagnostics)...)
}

// naming puts the attribute's path in front of each error's detail.
func naming(p path.Path, diags diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range diags.Errors() {
		out.AddAttributeError(p, d.Summary(), "Attribute "+p.String()+": "+d.Detail()+" Give every element a value, or leave it out.")
	}
	return out
}

// RefuseNullElements adds NoNullElements to every map, list and set attribute of a resource
// schema that configuration sets, nested ones and those in blocks included, so that no resource
// accepts a null element at plan only to fail on it later.
func RefuseNullElements(s schema.Schema) schema.Schema {
	s.Attributes = attributesRefusingNulls(s.Attributes)
	s.Blocks = blocksRefusingNulls(s.Blocks)
	return s
}

func attributesRefusingNulls(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	if attrs == nil {
		return nil
	}
	out := make(map[string]schema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = attributeRefusingNulls(a)
	}
	return out
}

func attributeRefusingNulls(a schema.Attribute) schema.Attribute {
	if !a.IsOptional() && !a.IsRequired() {
		return a // computed only: never configured
	}
	// Clip, so that appending never writes into a slice the Spec shares.
	switch a := a.(type) {
	case schema.MapAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		return a
	case schema.ListAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		return a
	case schema.SetAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		return a
	case schema.MapNestedAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		a.NestedObject.Attributes = attributesRefusingNulls(a.NestedObject.Attributes)
		return a
	case schema.ListNestedAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		a.NestedObject.Attributes = attributesRefusingNulls(a.NestedObject.Attributes)
		return a
	case schema.SetNestedAttribute:
		a.Validators = append(slices.Clip(a.Validators), NoNullElements())
		a.NestedObject.Attributes = attributesRefusingNulls(a.NestedObject.Attributes)
		return a
	case schema.SingleNestedAttribute:
		a.Attributes = attributesRefusingNulls(a.Attributes)
		return a
	}
	return a
}

func blocksRefusingNulls(blocks map[string]schema.Block) map[string]schema.Block {
	if blocks == nil {
		return nil
	}
	out := make(map[string]schema.Block, len(blocks))
	for name, b := range blocks {
		switch b := b.(type) {
		case schema.ListNestedBlock:
			b.NestedObject.Attributes = attributesRefusingNulls(b.NestedObject.Attributes)
			b.NestedObject.Blocks = blocksRefusingNulls(b.NestedObject.Blocks)
			out[name] = b
		case schema.SetNestedBlock:
			b.NestedObject.Attributes = attributesRefusingNulls(b.NestedObject.Attributes)
			b.NestedObject.Blocks = blocksRefusingNulls(b.NestedObject.Blocks)
			out[name] = b
		case schema.SingleNestedBlock:
			b.Attributes = attributesRefusingNulls(b.Attributes)
			b.Blocks = blocksRefusingNulls(b.Blocks)
			out[name] = b
		default:
			out[name] = b
		}
	}
	return out
}
