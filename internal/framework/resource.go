package framework

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Resource is the one create/read/update/delete/import cycle of every resource of the provider,
// for the objects its MultiSpec declares (one, through NewResource). Its `id` and `name` are the
// resource's; `uid` is the UID of the first object in Refs order that exists.
type Resource[M any, PM Model[M]] struct {
	Base
	Spec MultiSpec[M]
}

var (
	_ resource.ResourceWithConfigure        = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithImportState      = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithModifyPlan       = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithValidateConfig   = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithConfigValidators = &Resource[Metadata, *Metadata]{}
)

// hooks is what the optional hooks are asked of: the Spec behind an adapter, else the MultiSpec.
func (r *Resource[M, PM]) hooks() any {
	if o, ok := r.Spec.(interface{ hooks() any }); ok {
		return o.hooks()
	}
	return r.Spec
}

// namespaceOf is the namespace of a model that embeds NamespacedMetadata, else "".
func namespaceOf(m any) string {
	if n, ok := m.(interface{ NamespaceValue() string }); ok {
		return n.NamespaceValue()
	}
	return ""
}

// refs lists, in a fixed order, every object the resource with model m (and prior, on update;
// else nil) may own: the Spec's Refs, then those the models name (ModelRefs).
func (r *Resource[M, PM]) refs(m, prior *M) []ObjectRef {
	refs := r.Spec.Refs(namespaceOf(PM(m)), PM(m).Meta().Name.ValueString())
	mr, ok := r.hooks().(ModelRefs[M])
	if !ok {
		return refs
	}
	refs = append(refs, mr.ModelRefs(m)...)
	if prior != nil {
		for _, ref := range mr.ModelRefs(prior) {
			if !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	return refs
}

// objectID is the Terraform ID of an object: its name, or namespace/name.
func objectID(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func (r *Resource[M, PM]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.Spec.TypeSuffix()
}

// Schema is the Spec's schema, refusing null elements in every map, list and set.
func (r *Resource[M, PM]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = RefuseNullElements(r.Spec.Schema(ctx))
}

// ValidateConfig forwards to the Spec's ValidateConfig, if it has one.
func (r *Resource[M, PM]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if c, ok := r.hooks().(ConfigChecker); ok {
		c.ValidateConfig(ctx, req, resp)
	}
}

// ConfigValidators forwards to the Spec's ConfigValidators, if it has any.
func (r *Resource[M, PM]) ConfigValidators(ctx context.Context) []resource.ConfigValidator {
	if p, ok := r.hooks().(ConfigValidatorsProvider); ok {
		return p.ConfigValidators(ctx)
	}
	return nil
}

// ModifyPlan sets labels_all to what will be written, so that default_labels changes and
// out-of-band changes to any written label show in the plan, runs the Spec's PlanModifier, checks
// the objects the apply would write when they are known, and claims them for the resource
// instance (claims.go). It needs no cluster; a planned destroy may ask it (DestroyChecker).
func (r *Resource[M, PM]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.Provider == nil {
		return
	}
	if req.Plan.Raw.IsNull() {
		r.checkDestroyPlanned(ctx, req.State, req.Private, &resp.Diagnostics)
		return
	}
	var labels types.Map
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("labels"), &labels)...)
	specLabels, known := r.ownLabels(ctx, req.Plan, &resp.Diagnostics)
	if !FullyKnown(ctx, labels) || r.Provider.DefaultLabelsUnknown || !known {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("labels_all"), types.MapUnknown(types.StringType))...)
	} else {
		all := r.Provider.MergeLabels(StringMap(ctx, labels, &resp.Diagnostics))
		maps.Copy(all, specLabels)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("labels_all"), MapValue(all))...)
	}
	if pm, ok := r.hooks().(PlanModifier); ok && !resp.Diagnostics.HasError() {
		pm.ModifyPlan(ctx, r.Provider, req, resp)
	}
	// A plan equal to the state writes nothing, so there is nothing for the cluster to refuse.
	if !resp.Diagnostics.HasError() && !resp.Plan.Raw.Equal(req.State.Raw) {
		r.validatePlanned(ctx, resp)
	}
	// Whatever else is wrong, an object that another resource declares too is said as well.
	var m M
	if !req.Plan.Get(ctx, &m).HasError() {
		r.claimPlanned(ctx, &m, req, resp)
	}
}

// ownLabels are the labels the Spec writes on every object of the planned model (OwnLabeler),
// and whether they are known.
func (r *Resource[M, PM]) ownLabels(ctx context.Context, plan tfsdk.Plan, diags *diag.Diagnostics) (map[string]string, bool) {
	l, ok := r.hooks().(OwnLabeler[M])
	if !ok {
		return nil, true
	}
	var m M
	if diags.Append(plan.Get(ctx, &m)...); diags.HasError() {
		return nil, false
	}
	return l.OwnLabels(&m)
}

func (r *Resource[M, PM]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.applyPlanned(ctx, req.Plan, timeouts.Value.Create, nil, nil, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *Resource[M, PM]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var before M
	if resp.Diagnostics.Append(req.State.Get(ctx, &before)...); resp.Diagnostics.HasError() {
		return
	}
	r.applyPlanned(ctx, req.Plan, timeouts.Value.Update, &before, req.Private, resp.Private, &resp.State, &resp.Diagnostics)
}

// applyPlanned reads the planned model and applies it, bounded by the model's create or update
// timeout. before is the model in state and prior the private state before (both nil on create),
// next the private state after.
func (r *Resource[M, PM]) applyPlanned(ctx context.Context, plan tfsdk.Plan,
	timeout func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	before *M, prior privateState, next privateWriter, state *tfsdk.State, diags *diag.Diagnostics,
) {
	var m M
	if diags.Append(plan.Get(ctx, &m)...); diags.HasError() {
		return
	}
	d, tdiags := timeout(PM(&m).Meta().Timeouts, ctx, DefaultTimeout)
	diags.Append(tdiags...)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	own := r.owner(ctx, prior, &m, prior == nil, diags)
	if r.apply(ctx, &m, before, &own, state, diags) {
		// Every object (or key) now carries the instance's marks.
		own.adopted, own.legacy = nil, false
	}
	own.save(ctx, next, diags)
}

// owner is the ownership of the resource instance whose model m is: a new instance's when fresh
// (a create or an import), else as m's owner_id and the private state p record it.
func (r *Resource[M, PM]) owner(ctx context.Context, p privateState, m *M, fresh bool, diags *diag.Diagnostics) owner {
	meta := PM(m).Meta()
	id := objectID(namespaceOf(PM(m)), meta.Name.ValueString())
	if fresh {
		return newOwner(r.Provider.Client.FieldManager(), r.Spec.TypeSuffix(), id)
	}
	return loadOwner(ctx, p, r.Provider.Client.FieldManager(), r.Spec.TypeSuffix(), id, meta.OwnerID.ValueString(), diags)
}

// apply writes every object the model needs, then deletes those it no longer needs. It first
// reads each object to write, and refuses, before writing anything, when one exists that the
// resource did not write. The planned values are what was applied; only computed attributes come
// from the server. State is written once any object was written, so a partial failure (or an
// object that does not become ready) leaves a tainted resource that the next apply or destroy
// converges; nothing written, no state. It reports whether every object was written. before is the
// model in state (nil on create): objects only it names are deleted too.
func (r *Resource[M, PM]) apply(ctx context.Context, m, before *M, own *owner, state *tfsdk.State, diags *diag.Diagnostics) bool {
	meta := PM(m).Meta()
	om := ObjectMetaFor(ctx, r.Provider, meta, namespaceOf(PM(m)), diags)
	if l, ok := r.hooks().(OwnLabeler[M]); ok {
		own, _ := l.OwnLabels(m)
		maps.Copy(om.Labels, own)
	}
	objs, d := r.Spec.Expand(ctx, r.Provider, m, om)
	diags.Append(d...)
	if diags.HasError() {
		return false
	}
	// What the apiserver would refuse is refused before any API call, with nothing written.
	if r.validateObjects(ctx, m, objs, diags); diags.HasError() {
		return false
	}
	_, shared := r.hooks().(KeyOwner)
	lives := r.readBeforeWrite(ctx, objs, *own, shared, diags)
	if diags.HasError() {
		return false
	}
	if c, ok := r.hooks().(PreApplyChecker[M]); ok {
		if diags.Append(c.CheckBeforeApply(ctx, r.Provider, m)...); diags.HasError() {
			return false
		}
	}
	var applied []*unstructured.Unstructured
	uids := map[ObjectRef]string{}
	for i, o := range objs {
		var live *unstructured.Unstructured
		var err error
		if shared {
			live, err = r.writeKeys(ctx, o, own, lives[i])
		} else {
			live, err = r.writeOwned(ctx, o, *own, lives[i])
		}
		if err != nil {
			diags.AddError("Applying "+o.Ref.String(), err.Error())
			break
		}
		applied = append(applied, live)
		uids[o.Ref] = string(live.GetUID())
		if shared {
			keys, _ := dataKeys(o.Body)
			ownKeys(own, keys)
		}
	}
	refs := r.refs(m, before)
	if !diags.HasError() {
		for _, ref := range refs {
			if _, wanted := uids[ref]; wanted {
				continue
			}
			if err := r.deleteOwned(ctx, ref, *own); err != nil {
				diags.AddError("Deleting "+ref.String()+", which the configuration no longer needs", err.Error())
			}
		}
	}
	if len(uids) == 0 {
		return false
	}
	meta.ID = types.StringValue(objectID(om.Namespace, om.Name))
	meta.UID = types.StringNull()
	for _, ref := range refs {
		if uid, ok := uids[ref]; ok {
			meta.UID = types.StringValue(uid)
			break
		}
	}
	meta.LabelsAll = MapValue(om.Labels)
	meta.OwnerID = types.StringValue(own.instance)
	written := !diags.HasError()
	if written {
		r.afterApply(ctx, m, applied, diags)
	}
	diags.Append(state.Set(ctx, m)...)
	return written
}

// afterApply runs the AfterApplier and ReadyWaiter hooks on what was applied.
func (r *Resource[M, PM]) afterApply(ctx context.Context, m *M, applied []*unstructured.Unstructured, diags *diag.Diagnostics) {
	if a, ok := r.hooks().(AfterApplier[M]); ok {
		if diags.Append(a.AfterApply(ctx, r.Provider, m, applied)...); diags.HasError() {
			return
		}
	}
	if w, ok := r.hooks().(ReadyWaiter[M]); ok {
		if err := w.WaitReady(ctx, r.Provider.Client, m, applied); err != nil {
			diags.AddError("Applied, but not ready", err.Error())
		}
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
	own := r.owner(ctx, req.Private, &m, importing, &resp.Diagnostics)
	_, shared := r.hooks().(KeyOwner)
	refs := r.refs(&m, nil)
	if l, ok := r.hooks().(ImportLister[M]); ok && importing {
		listed, err := l.ImportRefs(ctx, r.Provider.Client, &m)
		if err != nil {
			resp.Diagnostics.AddError("Listing the objects of "+objectID(ns, name)+" to import", err.Error())
			return
		}
		for _, ref := range listed {
			if !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	live := make([]*unstructured.Unstructured, len(refs))
	var first *unstructured.Unstructured
	var foreign []string
	for i, ref := range refs {
		// Only a 404 of an API the cluster serves is "gone" (kube.Get); any other error keeps the
		// state as it is.
		obj, err := r.Provider.Client.Get(ctx, ref.Kind, ref.Namespace, ref.Name)
		if kube.IsNotFound(err) {
			continue
		}
		if err != nil {
			resp.Diagnostics.AddError("Reading "+ref.String(), err.Error())
			return
		}
		switch {
		case shared && importing:
			// A shared object is everyone's; what is the resource's are its keys.
			keys, err := importKeys(obj, ref)
			if err != nil {
				resp.Diagnostics.AddError("Cannot import "+objectID(ns, name), err.Error())
				return
			}
			ownKeys(&own, keys)
		case shared, own.owns(obj):
		case importing && adoptable(obj):
			// Import is the one way to take over an object: remembered by UID until an apply marks it.
			own.adopt(string(obj.GetUID()))
		case importing && i == 0:
			resp.Diagnostics.AddError("Cannot import "+objectID(ns, name), notAdoptable(ref, obj))
			return
		default:
			foreign = append(foreign, ref.String())
			continue
		}
		// The marks are the cycle's, not annotations the configuration manages.
		stripMarks(obj)
		live[i] = obj
		if first == nil {
			first = obj
		}
	}
	if first == nil && !importing {
		// Deleted outside Terraform: forget it, and the next plan creates it again (which refuses
		// to take over an object of the same name that someone else wrote since).
		if len(foreign) > 0 {
			resp.Diagnostics.AddWarning("Replaced outside Terraform",
				strings.Join(foreign, ", ")+" exists but was not written by this resource: it is someone else's now, and "+
					"Terraform forgets it. The next apply refuses to create over it; import it to manage it again.")
		}
		resp.State.RemoveResource(ctx)
		return
	}
	if first == nil {
		resp.Diagnostics.AddError("Cannot import "+objectID(ns, name), "it does not exist: none of "+refList(refs)+" was found")
		return
	}
	if importing {
		meta.OwnerID = types.StringValue(own.instance)
	}
	flattenMetadata(ctx, r.Provider, first, meta, importing, &resp.Diagnostics)
	meta.ID = types.StringValue(objectID(ns, name))
	meta.Name = types.StringValue(name)
	resp.Diagnostics.Append(r.Spec.Flatten(ctx, r.Provider, live, &m, importing)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// An import's ownership, and a legacy instance's id, are kept from the first read on.
	own.save(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func refList(refs []ObjectRef) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// ObjectMetaFor is the metadata the cycle writes for a model's metadata (also what a Spec that
// builds its objects at plan, to check them, must use).
func ObjectMetaFor(ctx context.Context, p *ProviderData, meta *Metadata, namespace string, diags *diag.Diagnostics) ObjectMeta {
	return ObjectMeta{
		Namespace:   namespace,
		Name:        meta.Name.ValueString(),
		Labels:      p.MergeLabels(StringMap(ctx, meta.Labels, diags)),
		Annotations: StringMap(ctx, meta.Annotations, diags),
	}
}

// flattenMetadata reads metadata back, keeping only the labels and annotations Terraform manages
// so that what other tools add causes no diff.
func flattenMetadata(ctx context.Context, p *ProviderData, live *unstructured.Unstructured, meta *Metadata, importing bool, diags *diag.Diagnostics) {
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

// ImportState takes the resource's name, or namespace/name when it has a namespace, as the import
// ID.
func (r *Resource[M, PM]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if _, namespaced := any(PM(new(M))).(interface{ NamespaceValue() string }); namespaced {
		ns, n, ok := strings.Cut(req.ID, "/")
		if !ok || ns == "" || n == "" {
			resp.Diagnostics.AddError("Invalid import ID",
				fmt.Sprintf("%s has a namespace: import it as <namespace>/<name>, got %q", ResourceTypePrefix+r.Spec.TypeSuffix(), req.ID))
			return
		}
		name = n
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("namespace"), ns)...)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
}
