package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// ObjectRef names one object a MultiResource may own.
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

// MultiSpec is Spec for a resource that declares several Kubernetes objects at once (a GPU node
// pool yields a NodePool per capacity type and a NodeOverlay). The cycle is Resource's: the same
// metadata, labels, drift, import, timeouts and plan step, applied to each object.
type MultiSpec[M any] interface {
	TypeSuffix() string
	Schema(ctx context.Context) schema.Schema
	// Refs lists, in a fixed order, every object a resource with this namespace and name may own.
	// Read gets each of them; Update deletes those Expand no longer returns; Delete deletes all.
	Refs(namespace, name string) []ObjectRef
	// Expand builds the objects the planned model needs, a subset of Refs, in the order to apply
	// them. It may read the cluster through p.Client, for an object it derives from another.
	Expand(ctx context.Context, p *ProviderData, m *M, meta ObjectMeta) ([]Object, diag.Diagnostics)
	// Flatten sets the model from the live objects, aligned with Refs (nil where one does not
	// exist). m holds the prior values; importing is true when there are none.
	Flatten(ctx context.Context, live []*unstructured.Unstructured, m *M, importing bool) diag.Diagnostics
}

// MultiResource is a Terraform resource for a set of Kubernetes objects. Its `id` and `name` are
// the resource's; `uid` is the UID of the first object in Refs order that exists.
type MultiResource[M any, PM Model[M]] struct {
	Base
	Spec MultiSpec[M]
}

var (
	_ resource.ResourceWithConfigure        = &MultiResource[Metadata, *Metadata]{}
	_ resource.ResourceWithImportState      = &MultiResource[Metadata, *Metadata]{}
	_ resource.ResourceWithModifyPlan       = &MultiResource[Metadata, *Metadata]{}
	_ resource.ResourceWithValidateConfig   = &MultiResource[Metadata, *Metadata]{}
	_ resource.ResourceWithConfigValidators = &MultiResource[Metadata, *Metadata]{}
)

func (r *MultiResource[M, PM]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.Spec.TypeSuffix()
}

func (r *MultiResource[M, PM]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.Spec.Schema(ctx)
}

func (r *MultiResource[M, PM]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyPlan(ctx, r.Provider, r.Spec, req, resp)
}

func (r *MultiResource[M, PM]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if c, ok := r.Spec.(ConfigChecker); ok {
		c.ValidateConfig(ctx, req, resp)
	}
}

func (r *MultiResource[M, PM]) ConfigValidators(ctx context.Context) []resource.ConfigValidator {
	if p, ok := r.Spec.(ConfigValidatorsProvider); ok {
		return p.ConfigValidators(ctx)
	}
	return nil
}

func (r *MultiResource[M, PM]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	applyPlanned[M, PM](ctx, req.Plan, timeouts.Value.Create, &resp.Diagnostics, func(ctx context.Context, m *M) {
		r.apply(ctx, m, &resp.State, &resp.Diagnostics)
	})
}

func (r *MultiResource[M, PM]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	applyPlanned[M, PM](ctx, req.Plan, timeouts.Value.Update, &resp.Diagnostics, func(ctx context.Context, m *M) {
		r.apply(ctx, m, &resp.State, &resp.Diagnostics)
	})
}

// apply writes every object the model needs, then deletes those it no longer needs. State is
// written once any object was written, so a partial failure leaves a tainted resource whose
// objects the next apply or destroy cleans up.
func (r *MultiResource[M, PM]) apply(ctx context.Context, m *M, state interface {
	Set(context.Context, any) diag.Diagnostics
}, diags *diag.Diagnostics) {
	meta := PM(m).Meta()
	om := objectMeta(ctx, r.Provider, meta, namespaceOf(PM(m)), diags)
	objs, d := r.Spec.Expand(ctx, r.Provider, m, om)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	uids := map[ObjectRef]string{}
	for _, o := range objs {
		live, err := r.Provider.Client.Apply(ctx, o.Ref.Kind, o.Body)
		if err != nil {
			diags.AddError("Applying "+o.Ref.String(), err.Error())
			break
		}
		uids[o.Ref] = string(live.GetUID())
	}
	if !diags.HasError() {
		for _, ref := range r.Spec.Refs(om.Namespace, om.Name) {
			if _, wanted := uids[ref]; wanted {
				continue
			}
			if err := r.Provider.Client.Delete(ctx, ref.Kind, ref.Namespace, ref.Name); err != nil {
				diags.AddError("Deleting "+ref.String()+", which the configuration no longer needs", err.Error())
			}
		}
	}
	if len(uids) == 0 {
		return
	}
	meta.ID = types.StringValue(objectID(om.Namespace, om.Name))
	meta.UID = types.StringNull()
	for _, ref := range r.Spec.Refs(om.Namespace, om.Name) {
		if uid, ok := uids[ref]; ok {
			meta.UID = types.StringValue(uid)
			break
		}
	}
	meta.LabelsAll = MapValue(om.Labels)
	diags.Append(state.Set(ctx, m)...)
}

func (r *MultiResource[M, PM]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta := PM(&m).Meta()
	ns, name := namespaceOf(PM(&m)), meta.Name.ValueString()
	importing := meta.UID.IsNull()
	refs := r.Spec.Refs(ns, name)
	live := make([]*unstructured.Unstructured, len(refs))
	var first *unstructured.Unstructured
	for i, ref := range refs {
		obj, err := r.Provider.Client.Get(ctx, ref.Kind, ref.Namespace, ref.Name)
		if kube.IsNotFound(err) {
			continue
		}
		if err != nil {
			resp.Diagnostics.AddError("Reading "+ref.String(), err.Error())
			return
		}
		live[i] = obj
		if first == nil {
			first = obj
		}
	}
	if first == nil && !importing {
		// Every object was deleted outside Terraform: the next plan creates them again.
		resp.State.RemoveResource(ctx)
		return
	}
	if first == nil {
		resp.Diagnostics.AddError("Cannot import "+objectID(ns, name), "none of its objects exists: "+refList(refs))
		return
	}
	flattenMetadata(ctx, r.Provider, first, meta, importing, &resp.Diagnostics)
	meta.ID = types.StringValue(objectID(ns, name))
	meta.Name = types.StringValue(name)
	resp.Diagnostics.Append(r.Spec.Flatten(ctx, live, &m, importing)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func refList(refs []ObjectRef) string {
	s := ""
	for i, r := range refs {
		if i > 0 {
			s += ", "
		}
		s += r.String()
	}
	return s
}

// Delete deletes every object the resource may own and waits until each is gone.
func (r *MultiResource[M, PM]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
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
	for _, ref := range r.Spec.Refs(namespaceOf(PM(&m)), meta.Name.ValueString()) {
		if err := r.Provider.Client.Delete(ctx, ref.Kind, ref.Namespace, ref.Name); err != nil {
			resp.Diagnostics.AddError("Deleting "+ref.String(), err.Error())
		}
	}
}

// ImportState takes the resource's name, or namespace/name when it is namespaced, as the ID.
func (r *MultiResource[M, PM]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var namespaced bool
	if refs := r.Spec.Refs("", "x"); len(refs) > 0 {
		namespaced = refs[0].Kind.Namespaced
	}
	importByName(ctx, kube.Kind{Kind: r.Spec.TypeSuffix(), Namespaced: namespaced}, req, resp)
}
