package framework

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ktypes "k8s.io/apimachinery/pkg/types"
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
// with `terraform import` (by UID, until the first apply marks them).
type owner struct {
	mark    string
	adopted map[ktypes.UID]bool
}

func (o owner) owns(obj *unstructured.Unstructured) bool {
	return obj.GetAnnotations()[OwnerAnnotation] == o.mark || o.adopted[obj.GetUID()]
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

// privateAdopted is the private state key that holds the UIDs adopted by import.
const privateAdopted = "adopted"

// privateState is what the framework's private state offers to a request or a response.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// loadAdopted reads the adopted UIDs from private state (nil when there is none).
func loadAdopted(ctx context.Context, p privateState, diags *diag.Diagnostics) map[ktypes.UID]bool {
	if p == nil {
		return nil
	}
	raw, d := p.GetKey(ctx, privateAdopted)
	diags.Append(d...)
	if len(raw) == 0 {
		return nil
	}
	var uids []ktypes.UID
	if err := json.Unmarshal(raw, &uids); err != nil {
		diags.AddError("Reading the provider's private state", err.Error())
		return nil
	}
	out := make(map[ktypes.UID]bool, len(uids))
	for _, u := range uids {
		out[u] = true
	}
	return out
}

// saveAdopted writes the adopted UIDs to private state; none removes the key.
func saveAdopted(ctx context.Context, p privateWriter, adopted map[ktypes.UID]bool, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	var raw []byte
	if len(adopted) > 0 {
		uids := make([]ktypes.UID, 0, len(adopted))
		for u := range adopted {
			uids = append(uids, u)
		}
		raw, _ = json.Marshal(uids)
	}
	diags.Append(p.SetKey(ctx, privateAdopted, raw)...)
}
