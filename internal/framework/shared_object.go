package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Shared objects: a ConfigMap that the GPU Operator's chart, other resources of this provider or
// other tools write keys to as well. A resource owns the data keys it declares, never the object:
// it writes them with server-side apply under a field manager of its own, so that its apply drops
// only keys it wrote before; it refuses a key that someone else wrote; its destroy removes its
// keys, and the object only when the resource created it and nothing else is left in it.

// KeyOwner is implemented by a Spec whose one object is a shared ConfigMap.
type KeyOwner interface {
	// PlannedKeys are the data keys a planned configuration declares; known is false while they
	// are not known yet.
	PlannedKeys(ctx context.Context, plan tfsdk.Plan) (keys []string, known bool, diags diag.Diagnostics)
}

// newKeyManager is a field manager for one resource's keys: the provider's, the resource type and
// a random part, since resources that share an object differ in nothing else the provider sees.
func newKeyManager(base, typeSuffix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return base + ":" + typeSuffix + ":" + hex.EncodeToString(b)
}

// keyOwnersOf maps each data key of obj to the field managers that own it.
func keyOwnersOf(obj *unstructured.Unstructured) map[string][]string {
	out := map[string][]string{}
	for _, e := range obj.GetManagedFields() {
		if e.FieldsV1 == nil {
			continue
		}
		var fields map[string]map[string]any
		if json.Unmarshal(e.FieldsV1.GetRawBytes(), &fields) != nil {
			continue
		}
		for f := range fields["f:data"] {
			if key, ok := strings.CutPrefix(f, "f:"); ok {
				out[key] = append(out[key], e.Manager)
			}
		}
	}
	return out
}

// dataKeys are the keys of the data of obj, a body to apply or a live object.
func dataKeys(body any) ([]string, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var obj struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(obj.Data))
	for k := range obj.Data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// ownKeys records keys as the resource's: those it wrote, or every key of the object on import.
func ownKeys(own *owner, keys []string) {
	own.keys = map[string]bool{}
	for _, k := range keys {
		own.keys[k] = true
	}
}

// checkKeys refuses, before anything is written, a key of o that the shared object already holds
// and the resource did not write, and records o's keys as the resource's. An object that does not
// exist yet is the resource's to create. A resource without a manager of its own (written before
// managers per resource) keeps the provider's.
func (r *Resource[M, PM]) checkKeys(ctx context.Context, o Object, own *owner, diags *diag.Diagnostics) {
	keys, err := dataKeys(o.Body)
	if err != nil {
		diags.AddError("Encoding "+o.Ref.String(), err.Error())
		return
	}
	defer func() {
		if !diags.HasError() {
			ownKeys(own, keys)
		}
	}()
	if own.manager == "" {
		own.manager = r.Provider.Client.FieldManager()
	}
	live, err := r.Provider.Client.Get(ctx, o.Ref.Kind, o.Ref.Namespace, o.Ref.Name)
	if kube.IsNotFound(err) {
		own.created = true
		return
	}
	if err != nil {
		diags.AddError("Reading "+o.Ref.String()+" before writing it", err.Error())
		return
	}
	present, owners := live.Object["data"], keyOwnersOf(live)
	data, _ := present.(map[string]any)
	for _, k := range keys {
		// A key the resource wrote stays its own when another manager edits it (the edit is
		// drift that the apply restores).
		if _, ok := data[k]; !ok || own.keys[k] || slices.Contains(owners[k], own.manager) {
			continue
		}
		diags.AddError(fmt.Sprintf("Key %q of %s already exists", k, o.Ref), fmt.Sprintf(
			"Key %q of %s was written by %s, not by this resource: the provider never takes over a key. Declare another key, "+
				"remove it from the other writer, or import the ConfigMap into this resource:\n\n"+
				"  terraform import %s%s.<name> %s",
			k, o.Ref, describeManagers(owners[k]), ResourceTypePrefix, r.Spec.TypeSuffix(), objectID(o.Ref.Namespace, o.Ref.Name)))
	}
}

func describeManagers(managers []string) string {
	if len(managers) == 0 {
		return "an unknown writer"
	}
	out := make([]string, len(managers))
	for i, m := range managers {
		out[i] = "field manager " + m
		if _, typeSuffix, ok := strings.Cut(m, ":"); ok {
			t, _, _ := strings.Cut(typeSuffix, ":")
			out[i] += " (another " + ResourceTypePrefix + t + ")"
		}
	}
	return strings.Join(out, " and ")
}

// deleteKeys removes the resource's keys (and labels and annotations) from the shared object by
// applying nothing under its manager, then deletes the object if the resource created it and
// nothing is left in it. The delete is conditional on the object being as just written, so a key
// written by someone else in between keeps it.
func (r *Resource[M, PM]) deleteKeys(ctx context.Context, ref ObjectRef, own owner) error {
	if own.manager == "" {
		own.manager = r.Provider.Client.FieldManager()
	}
	if _, err := r.Provider.Client.Get(ctx, ref.Kind, ref.Namespace, ref.Name); err != nil {
		if kube.IsNotFound(err) {
			return nil
		}
		return err
	}
	empty := map[string]any{
		"apiVersion": ref.Kind.GVR.GroupVersion().String(), "kind": ref.Kind.Kind,
		"metadata": map[string]any{"name": ref.Name, "namespace": ref.Namespace},
	}
	left, err := r.Provider.Client.ApplyAs(ctx, ref.Kind, empty, own.manager)
	if err != nil || !own.created {
		return err
	}
	if data, _ := left.Object["data"].(map[string]any); len(data) > 0 || left.Object["binaryData"] != nil {
		return nil // others' keys: the ConfigMap stays theirs
	}
	err = r.Provider.Client.Delete(ctx, ref.Kind, ref.Namespace, ref.Name, metav1.Preconditions{
		UID: ptr.To(left.GetUID()), ResourceVersion: ptr.To(left.GetResourceVersion()),
	})
	if kube.IsConflict(err) {
		return nil // written since: no longer empty, or no longer ours to delete
	}
	return err
}

// claimKeys refuses, at plan, a key of a shared object that another resource in the same
// configuration declares too. Claims live in the provider process, which plans every resource
// of one provider configuration; a resource is told apart by its type and its set of keys.
func (r *Resource[M, PM]) claimKeys(ctx context.Context, k KeyOwner, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var ns, name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("namespace"), &ns)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	keys, known, diags := k.PlannedKeys(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if !known || ns.IsUnknown() || name.IsUnknown() || resp.Diagnostics.HasError() {
		return
	}
	slices.Sort(keys)
	claimant := ResourceTypePrefix + r.Spec.TypeSuffix() + " declaring keys " + strings.Join(keys, ", ")
	object := objectID(ns.ValueString(), name.ValueString())
	for _, key := range keys {
		if other := r.Provider.claim(object+"\x00"+key, claimant); other != claimant {
			resp.Diagnostics.AddError("Key declared by two resources",
				fmt.Sprintf("Key %q of ConfigMap %s is declared by two resources: an %s and an %s. A key of a shared "+
					"ConfigMap belongs to one resource: remove it from one of them.", key, object, other, claimant))
		}
	}
}
