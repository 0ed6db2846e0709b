package framework

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// DefaultTimeout bounds create, update and delete unless the `timeouts` block says otherwise.
const DefaultTimeout = 5 * time.Minute

// ObjectMeta is the metadata the cycle computed for Expand to put on the object.
type ObjectMeta struct {
	Namespace   string // empty for cluster-scoped objects
	Name        string
	Labels      map[string]string // default_labels merged with the resource's labels
	Annotations map[string]string
}

// Spec is what one resource type adds to the shared cycle: its schema, and the mapping between
// its model M and the upstream object. Everything else (apply, read, drift, import, delete,
// timeouts, labels) is done once, by Resource.
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

// ReadyWaiter is implemented by a Spec whose objects report readiness (e.g. a ClusterQueue's
// Active condition). The cycle calls it after every apply, before recording state; it returns nil
// at once when the model switches waiting off, and otherwise an error that says why the object is
// not ready. It records in m the computed status it read (from applied when it did not wait).
type ReadyWaiter[M any] interface {
	WaitReady(ctx context.Context, c *kube.Client, m *M, applied *unstructured.Unstructured) error
}

// AfterApplier is implemented by a Spec whose object others are derived from (an EC2NodeClass
// that GPU node pools copy to add their billing tags): the cycle calls it after each successful
// apply, so the derived objects follow in the same terraform apply.
type AfterApplier[M any] interface {
	AfterApply(ctx context.Context, p *ProviderData, m *M, applied *unstructured.Unstructured) diag.Diagnostics
}

// PreApplyChecker is implemented by a Spec that checks the planned model against what is in the
// cluster before writing (e.g. quotas against what the GPU node pools can supply): errors stop
// the apply before anything is written, warnings are reported.
type PreApplyChecker[M any] interface {
	CheckBeforeApply(ctx context.Context, c *kube.Client, m *M) diag.Diagnostics
}

// DeleteExplainer is implemented by a Spec whose deletes can be held up (by a finalizer that a
// controller keeps while the object is in use); it says what holds the object.
type DeleteExplainer interface {
	ExplainStuckDelete(ctx context.Context, c *kube.Client, namespace, name string) string
}

// Model is satisfied by a pointer to a model that embeds Metadata or NamespacedMetadata.
type Model[M any] interface {
	*M
	Meta() *Metadata
}

// namespaceOf is the namespace of a model that embeds NamespacedMetadata, else "".
func namespaceOf(m any) string {
	if n, ok := m.(interface{ NamespaceValue() string }); ok {
		return n.NamespaceValue()
	}
	return ""
}

// objectID is the Terraform ID of an object: its name, or namespace/name.
func objectID(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// Resource is a Terraform resource for one kind of Kubernetes object.
type Resource[M any, PM Model[M]] struct {
	Base
	Spec Spec[M]
}

var (
	_ resource.ResourceWithConfigure   = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithImportState = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithModifyPlan  = &Resource[Metadata, *Metadata]{}
)

func (r *Resource[M, PM]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.Spec.TypeSuffix()
}

func (r *Resource[M, PM]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.Spec.Schema(ctx)
}

// PlanModifier is implemented by a Spec that computes attributes at plan time (e.g. EC2 tags
// merged from default_labels, or what a node pool supplies). The cycle calls it after setting
// labels_all; it needs no cluster.
type PlanModifier interface {
	ModifyPlan(ctx context.Context, p *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
}

// ModifyPlan sets labels_all to what will be written, so that default_labels changes and
// out-of-band changes to any written label show in the plan. It needs no cluster.
func (r *Resource[M, PM]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyPlan(ctx, r.Provider, r.Spec, req, resp)
}

// modifyPlan is the plan step both cycles share: labels_all, then the Spec's own PlanModifier.
func modifyPlan(ctx context.Context, p *ProviderData, spec any, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || p == nil {
		return
	}
	var labels types.Map
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("labels"), &labels)...)
	if labels.IsUnknown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("labels_all"), types.MapUnknown(types.StringType))...)
	} else {
		own := mapOf(ctx, labels, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("labels_all"), MapValue(p.MergeLabels(own)))...)
	}
	if pm, ok := spec.(PlanModifier); ok && !resp.Diagnostics.HasError() {
		pm.ModifyPlan(ctx, p, req, resp)
	}
}

// applyPlanned reads the planned model and runs apply on it, bounded by the model's create or
// update timeout: the shell both cycles share for Create and Update.
func applyPlanned[M any, PM Model[M]](ctx context.Context, plan tfsdk.Plan,
	timeout func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics, apply func(context.Context, *M),
) {
	var m M
	if diags.Append(plan.Get(ctx, &m)...); diags.HasError() {
		return
	}
	d, tdiags := timeout(PM(&m).Meta().Timeouts, ctx, DefaultTimeout)
	diags.Append(tdiags...)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	apply(ctx, &m)
}

func (r *Resource[M, PM]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	applyPlanned[M, PM](ctx, req.Plan, timeouts.Value.Create, &resp.Diagnostics, func(ctx context.Context, m *M) {
		r.apply(ctx, m, &resp.State, &resp.Diagnostics)
	})
}

func (r *Resource[M, PM]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	applyPlanned[M, PM](ctx, req.Plan, timeouts.Value.Update, &resp.Diagnostics, func(ctx context.Context, m *M) {
		r.apply(ctx, m, &resp.State, &resp.Diagnostics)
	})
}

// apply writes the planned model and records what the server returned. Nothing is written to
// state unless the object was written, so a failed apply leaves no half-created resource.
func (r *Resource[M, PM]) apply(ctx context.Context, m *M, state interface {
	Set(context.Context, any) diag.Diagnostics
}, diags *diag.Diagnostics) {
	meta := PM(m).Meta()
	om := objectMeta(ctx, r.Provider, meta, namespaceOf(PM(m)), diags)
	obj, d := r.Spec.Expand(ctx, m, om)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if c, ok := r.Spec.(PreApplyChecker[M]); ok {
		if diags.Append(c.CheckBeforeApply(ctx, r.Provider.Client, m)...); diags.HasError() {
			return
		}
	}
	live, err := r.Provider.Client.Apply(ctx, r.Spec.Kind(), obj)
	if err != nil {
		diags.AddError("Applying "+r.Spec.Kind().Kind+" "+objectID(om.Namespace, om.Name), err.Error())
		return
	}
	// The planned values are what was applied; only computed attributes come from the server.
	meta.ID = types.StringValue(objectID(om.Namespace, om.Name))
	meta.UID = types.StringValue(string(live.GetUID()))
	meta.LabelsAll = MapValue(om.Labels)
	if a, ok := r.Spec.(AfterApplier[M]); ok {
		// The object is written: on error it stays in state, tainted, and the next apply converges.
		if diags.Append(a.AfterApply(ctx, r.Provider, m, live)...); diags.HasError() {
			diags.Append(state.Set(ctx, m)...)
			return
		}
	}
	var notReady error
	if w, ok := r.Spec.(ReadyWaiter[M]); ok {
		notReady = w.WaitReady(ctx, r.Provider.Client, m, live)
	}
	// The object exists now, so it stays in state even when it does not become ready: Terraform
	// then marks it tainted, and the next apply converges.
	diags.Append(state.Set(ctx, m)...)
	if notReady != nil {
		diags.AddError(r.Spec.Kind().Kind+" "+objectID(om.Namespace, om.Name)+" is not ready", notReady.Error())
	}
}

func (r *Resource[M, PM]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta := PM(&m).Meta()
	ns, name := namespaceOf(PM(&m)), meta.Name.ValueString()
	importing := meta.UID.IsNull()
	live, err := r.Provider.Client.Get(ctx, r.Spec.Kind(), ns, name)
	if kube.IsNotFound(err) && !importing {
		// Deleted outside Terraform: forget it, and the next plan creates it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading "+r.Spec.Kind().Kind+" "+objectID(ns, name), err.Error())
		return
	}
	r.flattenMeta(ctx, live, meta, importing, &resp.Diagnostics)
	resp.Diagnostics.Append(r.Spec.Flatten(ctx, live, &m, importing)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// objectMeta is the metadata the cycle writes for a model.
func objectMeta(ctx context.Context, p *ProviderData, meta *Metadata, namespace string, diags *diag.Diagnostics) ObjectMeta {
	return ObjectMeta{
		Namespace:   namespace,
		Name:        meta.Name.ValueString(),
		Labels:      p.MergeLabels(mapOf(ctx, meta.Labels, diags)),
		Annotations: mapOf(ctx, meta.Annotations, diags),
	}
}

// flattenMeta reads metadata back, keeping only the labels and annotations Terraform manages so
// that what other tools add causes no diff.
func (r *Resource[M, PM]) flattenMeta(ctx context.Context, live *unstructured.Unstructured, meta *Metadata, importing bool, diags *diag.Diagnostics) {
	flattenMetadata(ctx, r.Provider, live, meta, importing, diags)
}

func flattenMetadata(ctx context.Context, p *ProviderData, live *unstructured.Unstructured, meta *Metadata, importing bool, diags *diag.Diagnostics) {
	meta.ID = types.StringValue(objectID(live.GetNamespace(), live.GetName()))
	meta.Name = types.StringValue(live.GetName())
	meta.UID = types.StringValue(string(live.GetUID()))
	labels := live.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	if importing {
		// Labels equal to a default label are taken to come from default_labels.
		own := map[string]string{}
		for k, v := range labels {
			if d, ok := p.DefaultLabels[k]; !ok || d != v {
				own[k] = v
			}
		}
		meta.Labels = ManagedMap(ctx, own, meta.Labels, true, diags)
		meta.LabelsAll = MapValue(labels)
	} else {
		meta.Labels = ManagedMap(ctx, labels, meta.Labels, false, diags)
		meta.LabelsAll = ManagedMap(ctx, labels, meta.LabelsAll, false, diags)
	}
	annotations := live.GetAnnotations()
	delete(annotations, "kubectl.kubernetes.io/last-applied-configuration")
	meta.Annotations = ManagedMap(ctx, annotations, meta.Annotations, importing, diags)
}

func (r *Resource[M, PM]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta := PM(&m).Meta()
	timeout, diags := meta.Timeouts.Delete(ctx, DefaultTimeout)
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ns := namespaceOf(PM(&m))
	if err := r.Provider.Client.Delete(ctx, r.Spec.Kind(), ns, meta.Name.ValueString()); err != nil {
		detail := err.Error()
		if e, ok := r.Spec.(DeleteExplainer); ok && ctx.Err() != nil {
			// The delete timed out: ask with a fresh context, since ctx is spent.
			explainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if why := e.ExplainStuckDelete(explainCtx, r.Provider.Client, ns, meta.Name.ValueString()); why != "" {
				detail += "\n\n" + why
			}
		}
		resp.Diagnostics.AddError("Deleting "+r.Spec.Kind().Kind+" "+objectID(ns, meta.Name.ValueString()), detail)
	}
}

// ImportState takes the object's name, or namespace/name for a namespaced kind, as the import ID.
func (r *Resource[M, PM]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByName(ctx, r.Spec.Kind(), req, resp)
}

// importByName sets id, name and, for a namespaced kind, namespace from the import ID.
func importByName(ctx context.Context, k kube.Kind, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if k.Namespaced {
		ns, n, ok := strings.Cut(req.ID, "/")
		if !ok || ns == "" || n == "" {
			resp.Diagnostics.AddError("Invalid import ID",
				fmt.Sprintf("%s is namespaced: import it as <namespace>/<name>, got %q", k.Kind, req.ID))
			return
		}
		name = n
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("namespace"), ns)...)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
}
