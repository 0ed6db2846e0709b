package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// The optional hooks of a Spec, in the order the cycle calls them: validation of the
// configuration, the plan, the checks of the planned objects and the claims, the apply, the read,
// the delete. A Spec implements the ones it needs, each with a compile-time assertion in its
// service (`_ framework.PlanModifier = trainingJobTemplate{}`); TestHooksAsserted fails when one
// is missing.

// ConfigValidatorsProvider is implemented by a Spec with declarative resource-level validators
// (resourcevalidator.Conflicting, ...); the cycle forwards them.
type ConfigValidatorsProvider interface {
	ConfigValidators(ctx context.Context) []resource.ConfigValidator
}

// ConfigChecker is implemented by a Spec with plan-time checks that span attributes (e.g. a quota
// that must name a covered resource). The cycle forwards Terraform's ValidateResourceConfig to it;
// config values may be unknown there, and the checks skip what is not known yet.
type ConfigChecker interface {
	ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse)
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

// ClusterReadingExpander is implemented by a MultiSpec whose Expand reads the cluster for some
// models (a GPU node pool with billing copies its node class). A plan makes no API call, so the
// objects of such a model are checked against their CRDs at apply only.
type ClusterReadingExpander[M any] interface {
	ExpandReadsCluster(m *M) bool
}

// UpstreamPathRenamer is implemented by a Spec whose attribute names differ from the fields of the
// objects it writes beyond the generic rule (see UpstreamAttribute). UpstreamPaths maps, for the
// objects of kind k, an upstream field path to the attribute path it comes from, e.g.
// "spec.resourceGroups[*].flavors" to "resource_group[*].flavor"; each `[*]` matches a list index,
// carried in order to the `[*]` of the attribute path. The longest matching path wins, and what
// follows it takes the generic rule.
type UpstreamPathRenamer interface {
	UpstreamPaths(k kube.Kind) map[string]string
}

// UpstreamRulePointer is implemented by a Spec some of whose objects' upstream rules are reported
// on a parent field (a CEL rule on spec.preemption, a duplicate key on a list element) while one
// attribute under it is what the user changes. It points; the rule stays upstream's.
type UpstreamRulePointer interface {
	UpstreamPointers(k kube.Kind) []UpstreamPointer
}

// UpstreamErrorWorder is implemented by a Spec whose attributes an upstream error points at in a
// way the generic mapping (UpstreamAttribute with the Spec's renames) cannot follow: a refusal in
// plain text that names no field (Argo's validator), or a field of a generated list whose index
// depends on the model. It words upstream's error e of the object o written for m, or reports
// false to leave it to the generic mapping.
type UpstreamErrorWorder[M any] interface {
	UpstreamRefusal(m *M, o Object, e *field.Error) (diag.Diagnostic, bool)
}

// PlannedRefs is implemented by a MultiSpec that writes only some of its Refs, depending on the
// model (a GPU node pool writes a NodePool per capacity type it declares): the objects the
// planned model writes, and whether they are known yet. Without it, a resource claims every ref.
type PlannedRefs[M any] interface {
	PlannedRefs(m *M) (refs []ObjectRef, known bool)
}

// KeyOwner is implemented by a Spec whose one object is a shared ConfigMap.
type KeyOwner interface {
	// PlannedKeys are the data keys a planned configuration declares; known is false while they
	// are not known yet.
	PlannedKeys(ctx context.Context, plan tfsdk.Plan) (keys []string, known bool, diags diag.Diagnostics)
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

// PreApplyChecker is implemented by a Spec that checks the planned model against what is in the
// cluster before writing (e.g. quotas against what the GPU node pools can supply): errors stop
// the apply before anything is written, warnings are reported.
type PreApplyChecker[M any] interface {
	CheckBeforeApply(ctx context.Context, p *ProviderData, m *M) diag.Diagnostics
}

// AfterApplier is implemented by a Spec whose object others are derived from (an EC2NodeClass
// that GPU node pools copy to add their billing tags): the cycle calls it after each successful
// apply, with the objects as applied, so the derived objects follow in the same terraform apply.
type AfterApplier[M any] interface {
	AfterApply(ctx context.Context, p *ProviderData, m *M, applied []*unstructured.Unstructured) diag.Diagnostics
}

// ReadyWaiter is implemented by a Spec whose objects report readiness (e.g. a ClusterQueue's
// Active condition). The cycle calls it after every apply, before recording state, with the
// objects as applied (in Expand's order); it returns nil at once when the model switches waiting
// off, and otherwise an error that says why an object is not ready. It records in m the computed
// status it read.
type ReadyWaiter[M any] interface {
	WaitReady(ctx context.Context, c *kube.Client, m *M, applied []*unstructured.Unstructured) error
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

// DeleteExplainer is implemented by a Spec whose deletes a controller's finalizer holds up while
// the object is in use (Kueue keeps a ResourceFlavor while a ClusterQueue names it, a ClusterQueue
// while workloads hold its quota). Before deleting, the cycle waits briefly for the holders to go
// and otherwise refuses, naming them, with nothing deleted; a delete that times out names them too.
// m is the model in state.
type DeleteExplainer[M any] interface {
	DeleteHolders(ctx context.Context, c *kube.Client, m *M) (DeleteHolders, error)
}
