package framework

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Shared objects: a ConfigMap that the GPU Operator's chart, other resources of this provider or
// other tools write keys to as well. A resource instance owns the data keys it declares, never the
// object: it claims each key with an annotation (KeyClaimAnnotation) and writes its keys, labels
// and annotations with server-side apply under its own field manager and without force, so that
//   - its apply drops only what it wrote before;
//   - a key another writer wrote, or another instance claims, is refused, and of two instances
//     applying one key at once one is refused (their claims conflict in the apiserver, even where
//     their values are equal and field ownership alone would be shared);
//   - a label or annotation another manager set with another value is an error naming it, never
//     overwritten; only the instance's own keys changed by someone else are taken back;
//   - its destroy removes only what it wrote, and the object only when it created it and nothing
//     else is left in it.
// Each write is conditional on the object as the checks read it: a write in between is read and
// decided again.

// keyClaimPrefix starts the annotations that claim a shared object's data keys.
const keyClaimPrefix = "keys.mlplatform.io/"

// KeyClaimAnnotation is the annotation through which a resource instance claims data key key: the
// key itself where it makes a valid annotation name, else a digest of it.
func KeyClaimAnnotation(key string) string {
	if len(validation.IsQualifiedName(keyClaimPrefix+key)) == 0 {
		return keyClaimPrefix + key
	}
	sum := sha256.Sum256([]byte(key))
	return keyClaimPrefix + "sha256-" + hex.EncodeToString(sum[:8])
}

// isMarkAnnotation reports whether an annotation is one of the cycle's ownership marks, which no
// configuration manages.
func isMarkAnnotation(key string) bool {
	return key == OwnerAnnotation || key == OwnerIDAnnotation || strings.HasPrefix(key, keyClaimPrefix)
}

// claim is the value of the instance's key claims.
func (o owner) claim() string { return ResourceTypePrefix + o.typeSuffix + "/" + o.instance }

// claiming is body (an apply configuration of a ConfigMap) as a map that claims keys.
func (o owner) claiming(body any, keys []string) (map[string]any, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	meta, _ := obj["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
		meta["annotations"] = annotations
	}
	for _, k := range keys {
		annotations[KeyClaimAnnotation(k)] = o.claim()
	}
	return obj, nil
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

// ownKeys records keys as the resource's: those it wrote, or those an import took.
func ownKeys(own *owner, keys []string) {
	own.keys = map[string]bool{}
	for _, k := range keys {
		own.keys[k] = true
	}
}

// keyRefusals say, for each of keys that live (found at ref) holds and that is not the instance's
// to write, who holds it and what to do; none when all are free.
func (o owner) keyRefusals(live *unstructured.Unstructured, ref ObjectRef, keys []string) []string {
	data, _ := live.Object["data"].(map[string]any)
	owners := keyOwnersOf(live)
	var out []string
	for _, k := range keys {
		if claim := live.GetAnnotations()[KeyClaimAnnotation(k)]; claim != "" && claim != o.claim() {
			out = append(out, fmt.Sprintf("Key %q of %s is claimed by %s (annotation %s): a key of a shared ConfigMap "+
				"belongs to one resource instance. Declare another key, or remove it from the other resource.",
				k, ref, claim, KeyClaimAnnotation(k)))
			continue
		}
		// A key the instance claimed or wrote stays its own when another manager edits it (the edit
		// is drift that the apply restores).
		if _, ok := data[k]; !ok || o.keys[k] || live.GetAnnotations()[KeyClaimAnnotation(k)] == o.claim() || slices.Contains(owners[k], o.manager) {
			continue
		}
		out = append(out, fmt.Sprintf("Key %q of %s was written by %s, not by this resource: the provider never takes "+
			"over a key. Declare another key, remove it from the other writer, or import the ConfigMap into this "+
			"resource:\n\n  terraform import %s%s.<name> %s",
			k, ref, describeManagers(owners[k]), ResourceTypePrefix, o.typeSuffix, o.id))
	}
	return out
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

// writeKeys applies o, the shared object with the instance's keys, over live (the object as it was
// read, nil when it did not exist), as the package comment says.
func (r *Resource[M, PM]) writeKeys(ctx context.Context, o Object, own *owner, live *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	keys, err := dataKeys(o.Body)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", o.Ref, err)
	}
	body, err := own.claiming(o.Body, keys)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", o.Ref, err)
	}
	c := r.Provider.Client
	for range maxWriteAttempts {
		opts := kube.ApplyOptions{Manager: own.manager}
		if live != nil {
			if refusals := own.keyRefusals(live, o.Ref, keys); len(refusals) > 0 {
				return nil, refusalError(refusals)
			}
			opts.ResourceVersion = live.GetResourceVersion()
		}
		out, err := c.ApplyWith(ctx, o.Ref.Kind, body, opts)
		if conflicts := kube.FieldConflicts(err); len(conflicts) > 0 && live != nil {
			if foreign := notOwnKeys(conflicts, keys); len(foreign) > 0 {
				return nil, foreignFieldsError(o.Ref, foreign)
			}
			// Only the instance's own keys, changed by someone else: drift, taken back, on the
			// object as it was checked.
			opts.Force = true
			out, err = c.ApplyWith(ctx, o.Ref.Kind, body, opts)
		}
		if err == nil {
			if live == nil {
				own.created = true
			}
			return out, nil
		}
		if !kube.IsConflict(err) {
			return nil, err
		}
		// Written by someone else since it was read: read it again and decide again.
		if live, err = c.Get(ctx, o.Ref.Kind, o.Ref.Namespace, o.Ref.Name); kube.IsNotFound(err) {
			live = nil
		} else if err != nil {
			return nil, err
		}
	}
	return nil, keptChanging(o.Ref)
}

// notOwnKeys are the conflicts on anything but the data keys the instance declares.
func notOwnKeys(conflicts []kube.FieldConflict, keys []string) []kube.FieldConflict {
	var out []kube.FieldConflict
	for _, c := range conflicts {
		key, isData := strings.CutPrefix(c.Field, ".data.")
		if !isData || !slices.Contains(keys, key) {
			out = append(out, c)
		}
	}
	return out
}

func foreignFieldsError(ref ObjectRef, conflicts []kube.FieldConflict) error {
	lines := make([]string, len(conflicts))
	for i, c := range conflicts {
		lines[i] = fmt.Sprintf("  %s, set by field manager %q", c.Field, c.Manager)
	}
	return fmt.Errorf("%s is shared, and another writer set these to other values than this resource declares:\n%s\n\n"+
		"The provider never overwrites or removes what another writer set on a shared ConfigMap. Remove them from this "+
		"resource's labels and annotations (or from the provider's default_labels), or let the other writer set the "+
		"same value", ref, strings.Join(lines, "\n"))
}

func refusalError(refusals []string) error {
	return fmt.Errorf("%s", strings.Join(refusals, "\n\n"))
}

// deleteKeys removes what the instance wrote to the shared object (its keys, claims, labels and
// annotations) by applying nothing under its manager, then deletes the object if the instance
// created it and nothing is left in it. The delete is conditional on the object being as just
// written, so a key written by someone else in between keeps it.
func (r *Resource[M, PM]) deleteKeys(ctx context.Context, ref ObjectRef, own owner) error {
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
	left, err := r.Provider.Client.ApplyWith(ctx, ref.Kind, empty, kube.ApplyOptions{Manager: own.manager})
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

// importKeys are the keys an import of the shared object live takes: those no other resource
// instance claims. It removes the claimed ones from live, so that they are not read into the
// resource, and refuses when every key is claimed.
func importKeys(live *unstructured.Unstructured, ref ObjectRef) ([]string, error) {
	keys, _ := dataKeys(live.Object)
	data, _ := live.Object["data"].(map[string]any)
	var free, claimed []string
	for _, k := range keys {
		if claim := live.GetAnnotations()[KeyClaimAnnotation(k)]; claim != "" {
			claimed = append(claimed, fmt.Sprintf("%q (by %s)", k, claim))
			delete(data, k)
			continue
		}
		free = append(free, k)
	}
	if len(free) == 0 && len(claimed) > 0 {
		return nil, fmt.Errorf("every key of %s is claimed by another resource instance: %s. Import takes only the keys "+
			"of a shared ConfigMap that no resource of this provider claims", ref, strings.Join(claimed, ", "))
	}
	return free, nil
}
