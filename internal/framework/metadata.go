package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Metadata is the part of every cluster-scoped resource model that maps to metadata. Embed it
// (untagged) in the model.
type Metadata struct {
	ID          types.String   `tfsdk:"id"`
	Name        types.String   `tfsdk:"name"`
	Labels      types.Map      `tfsdk:"labels"`
	LabelsAll   types.Map      `tfsdk:"labels_all"`
	Annotations types.Map      `tfsdk:"annotations"`
	UID         types.String   `tfsdk:"uid"`
	OwnerID     types.String   `tfsdk:"owner_id"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

// Meta gives the generic resource cycle access to the embedded metadata.
func (m *Metadata) Meta() *Metadata { return m }

// NamespacedMetadata is Metadata for namespaced objects. Embed it (untagged) in the model and use
// NamespacedMetadataAttributes.
type NamespacedMetadata struct {
	Metadata
	Namespace types.String `tfsdk:"namespace"`
}

// NamespaceValue is the object's namespace; the generic cycle looks for this method.
func (m *NamespacedMetadata) NamespaceValue() string { return m.Namespace.ValueString() }

// NamespacedMetadataAttributes are MetadataAttributes plus a required `namespace`. A resource
// with a default namespace replaces that attribute.
func NamespacedMetadataAttributes(kind string) map[string]schema.Attribute {
	attrs := MetadataAttributes(kind)
	attrs["id"] = schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: "`<namespace>/<name>` of the " + kind + "; the import ID.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["namespace"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Namespace of the " + kind + "; it must exist. Changing it replaces the object.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:          []validator.String{DNSLabel()},
	}
	return attrs
}

// MetadataAttributes returns the metadata attributes; kind names the object in descriptions.
func MetadataAttributes(kind string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The " + kind + "'s name; the import ID.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the " + kind + " (`metadata.name`). Changing it replaces the object.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators:          []validator.String{DNSSubdomain()},
		},
		"labels": schema.MapAttribute{
			ElementType: types.StringType,
			Optional:    true,
			MarkdownDescription: "Labels of the " + kind + " (`metadata.labels`), merged over the provider's " +
				"`default_labels`. Labels that other tools add are left alone and cause no diff.",
			Validators: LabelMapValidators(),
		},
		"labels_all": schema.MapAttribute{
			ElementType: types.StringType,
			Computed:    true,
			MarkdownDescription: "All labels the provider writes: the provider's `default_labels` merged with `labels`. " +
				"A change made to one of them outside Terraform shows here as drift.",
		},
		"annotations": schema.MapAttribute{
			ElementType: types.StringType,
			Optional:    true,
			MarkdownDescription: "Annotations of the " + kind + " (`metadata.annotations`). Annotations that other " +
				"tools add are left alone and cause no diff. `" + OwnerAnnotation + "`, `" + OwnerIDAnnotation + "` and `" +
				keyClaimPrefix + "*` are reserved: the provider writes them to name the resource instance that owns an " +
				"object, or a key of a shared ConfigMap.",
			Validators: []validator.Map{
				LabelMapValidators()[0],
				mapvalidator.KeysAre(NotMark()),
			},
		},
		"owner_id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "The id of this resource instance, made when it is created (or imported): every object it " +
				"writes carries it in the annotation `" + OwnerIDAnnotation + "`, and it updates and deletes only objects " +
				"that do, so that another workspace, another resource block or a replacement declaring the same name never " +
				"takes over or deletes them. It also names the instance's server-side apply field manager " +
				"(`<field_manager>:<type>:<owner_id>`). Null in a state written by an earlier version of the provider " +
				"until the resource's next update.",
			PlanModifiers: []planmodifier.String{keepOwnerID{}},
		},
		"uid": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The UID Kubernetes gave the " + kind + ".",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	}
}

// TimeoutsBlock is the `timeouts` block of every resource.
func TimeoutsBlock(ctx context.Context) schema.Block {
	d := func(op string) string {
		return "How long to wait for " + op + ", as a duration such as `10m` or `1h30m`. Defaults to `" + DefaultTimeout.String() + "`."
	}
	return timeouts.Block(ctx, timeouts.Opts{
		Create: true, Update: true, Delete: true,
		CreateDescription: d("the object to be created (and ready, where it reports readiness)"),
		UpdateDescription: d("the object to be updated (and ready, where it reports readiness)"),
		DeleteDescription: d("the object to be gone, including its finalizers"),
	})
}

// keepOwnerID plans the owner id in state, once there is one. (UseStateForUnknown would also keep
// the null of a state from an earlier version, which the update then sets.)
type keepOwnerID struct{}

func (keepOwnerID) Description(context.Context) string { return "the instance keeps its owner id" }
func (keepOwnerID) MarkdownDescription(ctx context.Context) string {
	return keepOwnerID{}.Description(ctx)
}

func (keepOwnerID) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.StateValue.IsNull() && req.PlanValue.IsUnknown() {
		resp.PlanValue = req.StateValue
	}
}
