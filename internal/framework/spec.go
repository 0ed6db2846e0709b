package framework

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// DefaultTimeout bounds create, update and delete unless the `timeouts` block says otherwise.
const DefaultTimeout = 5 * time.Minute

// ObjectMeta is the metadata the cycle computed for Expand to put on the objects.
type ObjectMeta struct {
	Namespace   string // empty for cluster-scoped objects
	Name        string
	Labels      map[string]string // default_labels merged with the resource's labels
	Annotations map[string]string
}

// ObjectRef names one object a resource may own. Whether it does is told by the object's owner
// mark (see OwnerAnnotation), never by its name alone.
type ObjectRef struct {
	Kind      kube.Kind
	Namespace string
	Name      string
}

func (o ObjectRef) String() string { return o.Kind.Kind + " " + objectID(o.Namespace, o.Name) }

// Object is one object to apply: where it goes and its body (an apply configuration, or a map
// from ApplyObject).
type Object struct {
	Ref  ObjectRef
	Body any
}

// Spec is what a resource for one Kubernetes object adds to the shared cycle: its schema, and the
// mapping between its model M and the upstream object. Everything else (apply, read, drift,
// import, delete, timeouts, labels) is done once, by Resource.
type Spec[M any] interface {
	Kind() kube.Kind
	// TypeSuffix is the resource type name without the provider prefix, e.g. "resource_flavor".
	TypeSuffix() string
	Schema(ctx context.Context) schema.Schema
	// Expand builds the object to apply (an upstream apply configuration) from the planned model.
	Expand(ctx context.Context, m *M, meta ObjectMeta) (any, diag.Diagnostics)
	// Flatten sets the model's own attributes from the live object. m holds the prior values,
	// which say which map keys Terraform manages; importing is true when there are none.
	Flatten(ctx context.Context, obj *unstructured.Unstructured, m *M, importing bool) diag.Diagnostics
}

// MultiSpec is Spec for a resource that declares several Kubernetes objects at once (a GPU node
// pool yields a NodePool per capacity type, NodeOverlays and an EC2NodeClass). The cycle is the
// same: metadata, labels, drift, import, timeouts and plan step, applied to each object.
type MultiSpec[M any] interface {
	TypeSuffix() string
	Schema(ctx context.Context) schema.Schema
	// Refs lists, in a fixed order, every object a resource with this namespace and name may own.
	// Read gets each of them; Update deletes those Expand no longer returns; Delete deletes all;
	// each only when it carries the resource's owner mark.
	Refs(namespace, name string) []ObjectRef
	// Expand builds the objects the planned model needs, a subset of Refs, in the order to apply
	// them. It may read the cluster through p.Client, for an object it derives from another.
	Expand(ctx context.Context, p *ProviderData, m *M, meta ObjectMeta) ([]Object, diag.Diagnostics)
	// Flatten sets the model from the live objects, aligned with Refs (nil where one does not
	// exist). m holds the prior values; importing is true when there are none. It may read the
	// cluster through p.Client, for an object its own are derived from.
	Flatten(ctx context.Context, p *ProviderData, live []*unstructured.Unstructured, m *M, importing bool) diag.Diagnostics
}

// Optional hooks. The cycle calls each one the Spec (or MultiSpec) implements.

// DeleteHolders is what keeps an object from being deleted.
type DeleteHolders struct {
	Staying []string // holders that stay, e.g. "ClusterQueue team-a"
	Leaving []string // holders that are being deleted themselves, so will let go
	Reason  string   // why they hold it, e.g. "Kueue keeps a flavor while a ClusterQueue names it"
	Remedy  string   // what the user can do
}

// Add files a holder as staying or, when it is being deleted (deleting is its deletion timestamp),
// leaving.
func (h *DeleteHolders) Add(holder string, deleting *metav1.Time) {
	if deleting != nil {
		h.Leaving = append(h.Leaving, holder)
		return
	}
	h.Staying = append(h.Staying, holder)
}

// describe says what holds the object, staying holders first, each sorted; leaving holders are
// named only when includeLeaving.
func (h DeleteHolders) describe(includeLeaving bool) string {
	names := slices.Sorted(slices.Values(h.Staying))
	if includeLeaving {
		for _, l := range slices.Sorted(slices.Values(h.Leaving)) {
			names = append(names, l+" (being deleted)")
		}
	}
	if len(names) == 0 {
		return ""
	}
	return h.Reason + ". Held by: " + strings.Join(names, ", ") + ". " + h.Remedy
}

// oneObject runs a Spec of one object through the cycle, as a MultiSpec with a single ref.
type oneObject[M any] struct{ spec Spec[M] }

func (o oneObject[M]) TypeSuffix() string                       { return o.spec.TypeSuffix() }
func (o oneObject[M]) Schema(ctx context.Context) schema.Schema { return o.spec.Schema(ctx) }

func (o oneObject[M]) Refs(namespace, name string) []ObjectRef {
	return []ObjectRef{{Kind: o.spec.Kind(), Namespace: namespace, Name: name}}
}

func (o oneObject[M]) Expand(ctx context.Context, _ *ProviderData, m *M, meta ObjectMeta) ([]Object, diag.Diagnostics) {
	body, diags := o.spec.Expand(ctx, m, meta)
	if diags.HasError() {
		return nil, diags
	}
	return []Object{{Ref: o.Refs(meta.Namespace, meta.Name)[0], Body: body}}, diags
}

func (o oneObject[M]) Flatten(ctx context.Context, _ *ProviderData, live []*unstructured.Unstructured, m *M, importing bool) diag.Diagnostics {
	return o.spec.Flatten(ctx, live[0], m, importing)
}

// hooks is the value the cycle asks for optional hooks: the Spec itself, not its adapter.
func (o oneObject[M]) hooks() any { return o.spec }

// NewResource is the Terraform resource for a Spec of one object.
func NewResource[M any, PM Model[M]](spec Spec[M]) resource.Resource {
	return &Resource[M, PM]{Spec: oneObject[M]{spec}}
}

// NewMultiResource is the Terraform resource for a MultiSpec of several objects.
func NewMultiResource[M any, PM Model[M]](spec MultiSpec[M]) resource.Resource {
	return &Resource[M, PM]{Spec: spec}
}

// Model is satisfied by a pointer to a model that embeds Metadata or NamespacedMetadata.
type Model[M any] interface {
	*M
	Meta() *Metadata
}
