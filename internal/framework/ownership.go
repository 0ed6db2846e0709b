package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Ownership: every object the provider writes carries an annotation naming the resource that
// wrote it. The cycle writes over, deletes and reads as its own only objects with its mark (or
// objects the user adopted explicitly with `terraform import`), so it never takes over an object
// that exists, and never deletes one it did not write, as Helm and Argo CD do with their marks.

// OwnerAnnotation is the annotation that names the resource that wrote an object.
const OwnerAnnotation = "mlplatform.io/owner"

// ResourceTypePrefix is the provider's prefix of every resource type name.
const ResourceTypePrefix = "mlplatform_"

// OwnerMark is the value of OwnerAnnotation for the resource of type suffix typeSuffix (e.g.
// "resource_flavor") with Terraform ID id: "mlplatform_resource_flavor/a100".
func OwnerMark(typeSuffix, id string) string { return ResourceTypePrefix + typeSuffix + "/" + id }

// WrittenByProvider reports whether obj carries the owner mark of any resource of this provider.
func WrittenByProvider(obj *unstructured.Unstructured) bool {
	_, marked := obj.GetAnnotations()[OwnerAnnotation]
	return marked
}

// MarkOwned is body (an apply configuration, typed object or map) as a map that carries mark.
func MarkOwned(body any, mark string) (map[string]any, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	annotations, _ := meta["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
		meta["annotations"] = annotations
	}
	annotations[OwnerAnnotation] = mark
	return obj, nil
}

// owner says which objects are one resource's: those with its mark, and those the user adopted
// with `terraform import` (by UID, until the first apply marks them). A KeyOwner's ownership is of
// data keys instead: those it wrote, or adopted by import, and writes under a manager of its own.
type owner struct {
	id      string // the resource's Terraform ID, its import ID
	mark    string
	adopted map[string]bool // UIDs of objects adopted by import
	keys    map[string]bool // a KeyOwner's keys
	manager string          // a KeyOwner's field manager ("" until its first apply)
	created bool            // a KeyOwner created the shared object, so may delete it once empty
}

func (o *owner) adopt(entry string) {
	if o.adopted == nil {
		o.adopted = map[string]bool{}
	}
	o.adopted[entry] = true
}

func (o owner) owns(obj *unstructured.Unstructured) bool {
	return obj.GetAnnotations()[OwnerAnnotation] == o.mark || o.adopted[string(obj.GetUID())]
}

// adoptable reports whether an import may take obj: it carries no resource's mark but this one's.
func (o owner) adoptable(obj *unstructured.Unstructured) bool {
	mark, marked := obj.GetAnnotations()[OwnerAnnotation]
	return !marked || mark == o.mark
}

// notOwned says why the cycle refuses to write over obj, found at ref, and what to do.
func notOwned(ref ObjectRef, obj *unstructured.Unstructured, typeSuffix, importID string) string {
	mark, marked := obj.GetAnnotations()[OwnerAnnotation]
	if marked {
		return fmt.Sprintf("%s already exists and belongs to another resource of this provider (annotation %s=%s). "+
			"Two resources cannot share an object: give this one another name.", ref, OwnerAnnotation, mark)
	}
	return fmt.Sprintf("%s already exists and was not created by this resource (it has no %s annotation): the provider "+
		"never takes over an existing object. To manage it with Terraform, import it:\n\n"+
		"  terraform import %s%s.<name> %s\n\nor give this resource another name.",
		ref, OwnerAnnotation, ResourceTypePrefix, typeSuffix, importID)
}

// privateOwner is the private state key that holds what the cycle knows of ownership beyond the
// marks: adopted objects and keys, and a KeyOwner's field manager.
const privateOwner = "owner"

// privateOwnerState is the JSON kept under privateOwner.
type privateOwnerState struct {
	Adopted []string `json:"adopted,omitempty"`
	Keys    []string `json:"keys,omitempty"`
	Manager string   `json:"manager,omitempty"`
	Created bool     `json:"created,omitempty"`
}

// privateState is what the framework's private state offers to a request or a response.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// loadOwner is the ownership of the resource of type typeSuffix and Terraform ID id, completed from
// private state (p may be nil).
func loadOwner(ctx context.Context, p privateState, typeSuffix, id string, diags *diag.Diagnostics) owner {
	o := owner{id: id, mark: OwnerMark(typeSuffix, id)}
	if p == nil {
		return o
	}
	raw, d := p.GetKey(ctx, privateOwner)
	diags.Append(d...)
	if len(raw) == 0 {
		return o
	}
	var st privateOwnerState
	if err := json.Unmarshal(raw, &st); err != nil {
		diags.AddError("Reading the provider's private state", err.Error())
		return o
	}
	for _, a := range st.Adopted {
		o.adopt(a)
	}
	if len(st.Keys) > 0 {
		o.keys = map[string]bool{}
		for _, k := range st.Keys {
			o.keys[k] = true
		}
	}
	o.manager, o.created = st.Manager, st.Created
	return o
}

// save writes the ownership to private state; nothing to keep removes the key.
func (o owner) save(ctx context.Context, p privateWriter, diags *diag.Diagnostics) {
	st := privateOwnerState{
		Adopted: slices.Sorted(maps.Keys(o.adopted)),
		Keys:    slices.Sorted(maps.Keys(o.keys)),
		Manager: o.manager,
		Created: o.created,
	}
	var raw []byte
	if len(st.Adopted) > 0 || len(st.Keys) > 0 || st.Manager != "" || st.Created {
		raw, _ = json.Marshal(st)
	}
	diags.Append(p.SetKey(ctx, privateOwner, raw)...)
}

// checkOwned reads every object to write and refuses those that exist but are not the resource's.
func (r *Resource[M, PM]) checkOwned(ctx context.Context, objs []Object, own owner, diags *diag.Diagnostics) {
	for _, o := range objs {
		live, err := r.Provider.Client.Get(ctx, o.Ref.Kind, o.Ref.Namespace, o.Ref.Name)
		switch {
		case kube.IsNotFound(err):
		case err != nil:
			diags.AddError("Reading "+o.Ref.String()+" before writing it", err.Error())
		case !own.owns(live):
			diags.AddError(o.Ref.String()+" already exists", notOwned(o.Ref, live, r.Spec.TypeSuffix(), own.id))
		}
	}
}
