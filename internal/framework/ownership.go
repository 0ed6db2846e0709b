package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Ownership: each resource instance (one block, or one count or for_each key, in one state) has an
// id of its own, made at create and kept in its state (owner_id). Every object it writes carries
// two annotations, OwnerAnnotation naming the resource (for people) and OwnerIDAnnotation its
// instance, and is written under a field manager of the instance's own. The cycle writes over,
// deletes and reads as its own only objects with the instance's marks (or objects the user adopted
// with `terraform import`), so it never takes over an object that exists and never deletes one it
// did not write, even when another workspace, another block or a replacement declares the same
// name: as Helm and Argo CD do with their marks. The id is an attribute, not private state, as
// Terraform hands a tainted object's destroy its state but not its private state.

const (
	// OwnerAnnotation names the resource that wrote an object: "mlplatform_resource_flavor/a100".
	OwnerAnnotation = "mlplatform.io/owner"
	// OwnerIDAnnotation names the resource instance that wrote an object.
	OwnerIDAnnotation = "mlplatform.io/owner-id"
	// ResourceTypePrefix is the provider's prefix of every resource type name.
	ResourceTypePrefix = "mlplatform_"
	// MaxTypeSuffixLength bounds resource type names (without the prefix), so that every
	// instance's field manager fits the apiserver's limit.
	MaxTypeSuffixLength = 27
	// instanceIDLength is the length of an instance id: 8 hex digits. Two instances are told apart
	// by their object's name and type as well, so a collision of ids alone changes nothing.
	instanceIDLength = 8
	// MaxFieldManagerLength is the longest provider field_manager: an instance's manager adds
	// ":<type>:<instance id>" to it, and the apiserver refuses managers over 128 characters.
	MaxFieldManagerLength = 128 - (1 + MaxTypeSuffixLength + 1 + instanceIDLength)
)

// OwnerMark is the value of OwnerAnnotation for the resource of type suffix typeSuffix (e.g.
// "resource_flavor") with Terraform ID id: "mlplatform_resource_flavor/a100".
func OwnerMark(typeSuffix, id string) string { return ResourceTypePrefix + typeSuffix + "/" + id }

// WrittenByProvider reports whether obj carries the owner mark of any resource of this provider.
func WrittenByProvider(obj *unstructured.Unstructured) bool {
	_, marked := obj.GetAnnotations()[OwnerAnnotation]
	return marked
}

func newInstanceID() string {
	b := make([]byte, instanceIDLength/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// instanceManager is the field manager of one resource instance: the provider's, the resource type
// and the instance id.
func instanceManager(base, typeSuffix, instance string) string {
	return base + ":" + typeSuffix + ":" + instance
}

// ManagerOf is the field manager under which the resource instance that marked obj writes it, for
// a resource that keeps another's object in step (a node class rewriting a pool's copy of it).
func (p *ProviderData) ManagerOf(obj *unstructured.Unstructured) string {
	ann := obj.GetAnnotations()
	typeSuffix, _, _ := strings.Cut(strings.TrimPrefix(ann[OwnerAnnotation], ResourceTypePrefix), "/")
	if id := ann[OwnerIDAnnotation]; id != "" && typeSuffix != "" {
		return instanceManager(p.Client.FieldManager(), typeSuffix, id)
	}
	return p.Client.FieldManager() // written before instances had managers of their own
}

// owner says which objects are one resource instance's: those with its marks, and those the user
// adopted with `terraform import` (by UID, until the first apply marks them). A KeyOwner's
// ownership is of data keys instead: those it claimed, or adopted by import.
type owner struct {
	typeSuffix string
	id         string // the resource's Terraform ID, its import ID
	mark       string
	instance   string
	// legacy: the state was written before instance ids, so the resource's objects carry its mark
	// and no id, until an apply rewrites them all.
	legacy  bool
	manager string          // the field manager the instance writes under
	adopted map[string]bool // UIDs of objects adopted by import
	keys    map[string]bool // a KeyOwner's keys
	created bool            // a KeyOwner created the shared object, so may delete it once empty
}

func (o *owner) adopt(entry string) {
	if o.adopted == nil {
		o.adopted = map[string]bool{}
	}
	o.adopted[entry] = true
}

func (o owner) owns(obj *unstructured.Unstructured) bool {
	if o.adopted[string(obj.GetUID())] {
		return true
	}
	ann := obj.GetAnnotations()
	if id, ok := ann[OwnerIDAnnotation]; ok {
		return id == o.instance && ann[OwnerAnnotation] == o.mark
	}
	return o.legacy && ann[OwnerAnnotation] == o.mark
}

// adoptable reports whether an import may take obj: no resource of the provider marked it.
func adoptable(obj *unstructured.Unstructured) bool {
	ann := obj.GetAnnotations()
	_, marked := ann[OwnerAnnotation]
	_, identified := ann[OwnerIDAnnotation]
	return !marked && !identified
}

// marked is body (an apply configuration, typed object or map) as a map that carries the
// instance's marks.
func (o owner) marked(body any) (map[string]any, error) {
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
	annotations[OwnerAnnotation] = o.mark
	annotations[OwnerIDAnnotation] = o.instance
	return obj, nil
}

// stripMarks removes the cycle's marks (owner, instance, key claims) from a live object, so that
// a resource reads back only what its configuration manages.
func stripMarks(obj *unstructured.Unstructured) {
	ann := obj.GetAnnotations()
	for k := range ann {
		if isMarkAnnotation(k) {
			delete(ann, k)
		}
	}
	if ann != nil {
		obj.SetAnnotations(ann)
	}
}

// ownerOf says who wrote obj, from its marks: "" when it has none.
func ownerOf(obj *unstructured.Unstructured) string {
	ann := obj.GetAnnotations()
	mark, ok := ann[OwnerAnnotation]
	if !ok {
		return ""
	}
	who := strings.Replace(mark, "/", " ", 1)
	if id := ann[OwnerIDAnnotation]; id != "" {
		who += " (instance " + id + ")"
	} else {
		who += " (written by an earlier version of the provider, before instance ids)"
	}
	return who + ", created " + obj.GetCreationTimestamp().UTC().Format(time.RFC3339)
}

// notOwned says why the cycle refuses to write over obj, found at ref, and what to do.
func notOwned(ref ObjectRef, obj *unstructured.Unstructured, typeSuffix, importID string) string {
	if who := ownerOf(obj); who != "" {
		return fmt.Sprintf("%s already exists and belongs to another resource instance: %s (annotations %s and %s). "+
			"An object belongs to one resource instance: another resource block, another workspace or another state "+
			"declares it too. Give this resource another name, or remove the other declaration.\n\n"+
			"If this is the replacement of that same resource with its name unchanged (create_before_destroy, "+
			"-replace or replace_triggered_by), the new object cannot be created while the one it replaces holds the "+
			"name: remove create_before_destroy from its lifecycle (Terraform then destroys the old object first) or "+
			"change the name. If you renamed the resource block, declare the move with a moved block instead.",
			ref, who, OwnerAnnotation, OwnerIDAnnotation)
	}
	return fmt.Sprintf("%s already exists and was not created by this resource (it has no %s annotation): the provider "+
		"never takes over an existing object. To manage it with Terraform, import it:\n\n"+
		"  terraform import %s%s.<name> %s\n\nor give this resource another name.",
		ref, OwnerAnnotation, ResourceTypePrefix, typeSuffix, importID)
}

// notAdoptable says why an import refuses obj, found at ref.
func notAdoptable(ref ObjectRef, obj *unstructured.Unstructured) string {
	name := ref.Name
	if ref.Namespace != "" {
		name += " -n " + ref.Namespace
	}
	return fmt.Sprintf("%s belongs to %s: import takes only objects that no resource of this provider owns. If no "+
		"Terraform state holds that resource any more (it was removed with `terraform state rm`), release the object "+
		"first, then import it:\n\n  kubectl annotate %s %s %s- %s-",
		ref, ownerOf(obj), strings.ToLower(ref.Kind.GVR.GroupResource().String()), name, OwnerAnnotation, OwnerIDAnnotation)
}

// privateOwner is the private state key that holds what the instance knows of ownership beyond
// its id: objects and keys adopted by import, its field manager, and whether it is still moving
// from an earlier version's marks.
const privateOwner = "owner"

// privateOwnerState is the JSON kept under privateOwner.
type privateOwnerState struct {
	Legacy  bool     `json:"legacy,omitempty"`
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

// newOwner is the ownership of a new resource instance (a create, or an import).
func newOwner(base, typeSuffix, id string) owner {
	instance := newInstanceID()
	return owner{typeSuffix: typeSuffix, id: id, mark: OwnerMark(typeSuffix, id), instance: instance,
		manager: instanceManager(base, typeSuffix, instance)}
}

// loadOwner is the ownership of the existing instance of type typeSuffix and Terraform ID id, with
// owner id instance (its state's owner_id) and private state p. A state without an owner id was
// written by an earlier version of the provider: its objects carry the resource's mark without an
// id and were written under the provider's field manager (a KeyOwner's under the one it recorded),
// and they stay the instance's until an apply has marked them all.
func loadOwner(ctx context.Context, p privateState, base, typeSuffix, id, instance string, diags *diag.Diagnostics) owner {
	o := owner{typeSuffix: typeSuffix, id: id, mark: OwnerMark(typeSuffix, id), instance: instance}
	var st privateOwnerState
	if p != nil {
		raw, d := p.GetKey(ctx, privateOwner)
		diags.Append(d...)
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &st); err != nil {
				diags.AddError("Reading the provider's private state", err.Error())
			}
		}
	}
	o.legacy, o.manager, o.created = st.Legacy || instance == "", st.Manager, st.Created
	if o.instance == "" {
		if _, id, ok := cutLast(o.manager, ":"); ok && len(id) == instanceIDLength {
			o.instance = id // a KeyOwner's manager ends with the id it had
		} else {
			o.instance = newInstanceID()
		}
	}
	switch {
	case o.manager != "":
	case instance != "":
		o.manager = instanceManager(base, typeSuffix, instance)
	default:
		o.manager = base
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
	return o
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// save writes the ownership to private state.
func (o owner) save(ctx context.Context, p privateWriter, diags *diag.Diagnostics) {
	raw, _ := json.Marshal(privateOwnerState{
		Legacy:  o.legacy,
		Adopted: slices.Sorted(maps.Keys(o.adopted)),
		Keys:    slices.Sorted(maps.Keys(o.keys)),
		Manager: o.manager,
		Created: o.created,
	})
	diags.Append(p.SetKey(ctx, privateOwner, raw)...)
}
