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

// ReadyWaiter is implemented by a Spec whose objects report readiness (e.g. a ClusterQueue's
// Active condition). The cycle calls it after every apply, before recording state, with the
// objects as applied (in Expand's order); it returns nil at once when the model switches waiting
// off, and otherwise an error that says why an object is not ready. It records in m the computed
// status it read.
type ReadyWaiter[M any] interface {
	WaitReady(ctx context.Context, c *kube.Client, m *M, applied []*unstructured.Unstructured) error
}

// AfterApplier is implemented by a Spec whose object others are derived from (an EC2NodeClass
// that GPU node pools copy to add their billing tags): the cycle calls it after each successful
// apply, with the objects as applied, so the derived objects follow in the same terraform apply.
type AfterApplier[M any] interface {
	AfterApply(ctx context.Context, p *ProviderData, m *M, applied []*unstructured.Unstructured) diag.Diagnostics
}

// PreApplyChecker is implemented by a Spec that checks the planned model against what is in the
// cluster before writing (e.g. quotas against what the GPU node pools can supply): errors stop
// the apply before anything is written, warnings are reported.
type PreApplyChecker[M any] interface {
	CheckBeforeApply(ctx context.Context, c *kube.Client, m *M) diag.Diagnostics
}

// DeleteExplainer is implemented by a Spec whose deletes a controller's finalizer holds up while
// the object is in use (Kueue keeps a ResourceFlavor while a ClusterQueue names it, a ClusterQueue
// while workloads hold its quota). Before deleting, the cycle waits briefly for the holders to go
// and otherwise refuses, naming them, with nothing deleted; a delete that times out names them too.
// m is the model in state.
type DeleteExplainer[M any] interface {
	DeleteHolders(ctx context.Context, c *kube.Client, m *M) (DeleteHolders, error)
}

// ModelRefs is implemented by a MultiSpec some of whose objects are named by the model beyond its
// namespace and name (a team's LocalQueues): the cycle reads, updates away and deletes those too,
// as if Refs listed them after its own. On update it asks with both the planned and the prior
// model, so an object the configuration no longer names is deleted.
type ModelRefs[M any] interface {
	ModelRefs(m *M) []ObjectRef
}

// ImportLister is implemented by a ModelRefs Spec whose model-named objects an import must find
// without a model: the cycle reads those it lists as well (and adopts the unmarked ones).
type ImportLister[M any] interface {
	ImportRefs(ctx context.Context, c *kube.Client, m *M) ([]ObjectRef, error)
}

// DestroyChecker is implemented by a Spec whose destroy deletes more than the resource wrote (a
// team's namespace takes everything in it with it). It refuses, naming them, while objects the
// resource did not write would be lost, and says so when it cannot tell (a refusal too). The cycle
// calls it twice: when Terraform plans the destroy, so that a refused destroy deletes nothing else
// of the configuration either, with owns true for every object this provider wrote (the same
// destroy may delete those first) and for those the instance adopted by import; and in Delete,
// before anything is deleted, with owns true only for the resource instance's own objects. m is
// the model in state.
type DestroyChecker[M any] interface {
	CheckDestroy(ctx context.Context, c *kube.Client, m *M, owns func(*unstructured.Unstructured) bool) diag.Diagnostics
}

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

// OwnLabeler is implemented by a Spec that writes labels of its own on every object, over
// default_labels and `labels` (a team's billing labels). The cycle puts them into the metadata
// Expand gets and into labels_all; known is false while they are unknown at plan.
type OwnLabeler[M any] interface {
	OwnLabels(m *M) (labels map[string]string, known bool)
}

// PlanModifier is implemented by a Spec that computes attributes at plan time (e.g. EC2 tags
// merged from default_labels, or what a node pool supplies). The cycle calls it after setting
// labels_all; it needs no cluster.
type PlanModifier interface {
	ModifyPlan(ctx context.Context, p *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
}

// ConfigChecker is implemented by a Spec with plan-time checks that span attributes (e.g. a quota
// that must name a covered resource). The cycle forwards Terraform's ValidateResourceConfig to it;
// config values may be unknown there, and the checks skip what is not known yet.
type ConfigChecker interface {
	ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse)
}

// ConfigValidatorsProvider is implemented by a Spec with declarative resource-level validators
// (resourcevalidator.Conflicting, ...); the cycle forwards them.
type ConfigValidatorsProvider interface {
	ConfigValidators(ctx context.Context) []resource.ConfigValidator
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
