package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// validateObjects checks each object of a custom resource kind as the apiserver and upstream's
// admission code would (package validate), and adds upstream's errors on the attributes they came
// from. m is the model the objects were expanded from.
func (r *Resource[M, PM]) validateObjects(ctx context.Context, m *M, objs []Object, diags *diag.Diagnostics) {
	var s *schema.Schema
	for _, o := range objs {
		gvk := o.Ref.Kind.GVR.GroupVersion().WithKind(o.Ref.Kind.Kind)
		if !validate.Known(gvk.GroupKind()) {
			continue
		}
		errs, err := validate.Object(ctx, o.Body)
		if err != nil {
			diags.AddError("Cannot check "+o.Ref.String()+" against its CRD", err.Error())
			continue
		}
		if len(errs) == 0 {
			continue
		}
		if s == nil {
			sch := r.Spec.Schema(ctx)
			s = &sch
		}
		errs = r.wordRefusals(m, o, errs, diags)
		addUpstreamErrors(ctx, *s, r.renames(o.Ref.Kind), r.pointers(o.Ref.Kind), o.Ref, errs, diags)
	}
}

func (r *Resource[M, PM]) renames(k kube.Kind) map[string]string {
	if u, ok := r.hooks().(UpstreamPathRenamer); ok {
		return u.UpstreamPaths(k)
	}
	return nil
}

func (r *Resource[M, PM]) pointers(k kube.Kind) []UpstreamPointer {
	if u, ok := r.hooks().(UpstreamRulePointer); ok {
		return u.UpstreamPointers(k)
	}
	return nil
}

// wordRefusals adds the errors of errs that the Spec words, if it does, and returns the others.
func (r *Resource[M, PM]) wordRefusals(m *M, o Object, errs field.ErrorList, diags *diag.Diagnostics) field.ErrorList {
	w, ok := r.hooks().(UpstreamErrorWorder[M])
	if !ok {
		return errs
	}
	var rest field.ErrorList
	for _, e := range errs {
		if d, ok := w.UpstreamRefusal(m, o, e); ok {
			diags.Append(d)
		} else {
			rest = append(rest, e)
		}
	}
	return rest
}

// addUpstreamErrors puts each error on the attribute a pointer names or its field comes from, else
// on the resource. The summary says the cluster would refuse the object (by its CRD or built-in
// validation, or upstream's admission code, as package validate judged it); the detail is
// upstream's error as the apiserver prints it, path included, after "Attribute <path>: " as the
// framework's own validators word theirs, so that it names the attribute.
func addUpstreamErrors(ctx context.Context, s schema.Schema, renames map[string]string, pointers []UpstreamPointer,
	ref ObjectRef, errs field.ErrorList, diags *diag.Diagnostics,
) {
	summary := ref.String() + " would be refused by the cluster"
	for _, e := range errs {
		at, rn := e.Field, renames
		if to, ok := pointedAttribute(e.Field, validate.Text(e), pointers); ok {
			at, rn = to, nil
		}
		if p, ok := UpstreamAttribute(ctx, s, at, rn); ok {
			diags.AddAttributeError(p, summary, "Attribute "+p.String()+": "+validate.Text(e))
		} else {
			diags.AddError(summary, validate.Text(e))
		}
	}
}

// validatePlanned runs the apply's check of the objects at plan, when what Expand reads is known:
// the planned model, but for what only the apply computes (id, uid, status), default_labels and
// the Spec's own labels; and only when Expand needs no API call for the model.
func (r *Resource[M, PM]) validatePlanned(ctx context.Context, resp *resource.ModifyPlanResponse) {
	s := r.Spec.Schema(ctx)
	if r.Provider.DefaultLabelsUnknown || !knownButComputed(ctx, s, resp.Plan.Raw) {
		return
	}
	var m M
	if d := resp.Plan.Get(ctx, &m); d.HasError() {
		return
	}
	if c, ok := r.hooks().(ClusterReadingExpander[M]); ok && c.ExpandReadsCluster(&m) {
		return
	}
	var diags diag.Diagnostics
	om := ObjectMetaFor(ctx, r.Provider, PM(&m).Meta(), namespaceOf(PM(&m)), &diags)
	if l, ok := r.hooks().(OwnLabeler[M]); ok {
		own, known := l.OwnLabels(&m)
		if !known {
			return
		}
		for k, v := range own {
			om.Labels[k] = v
		}
	}
	objs, d := r.Spec.Expand(ctx, r.Provider, &m, om)
	if diags.Append(d...); diags.HasError() {
		return // the apply reports it
	}
	r.validateObjects(ctx, &m, objs, &resp.Diagnostics)
}

// knownButComputed reports whether every unknown value of v is of an attribute that only the
// provider computes (Computed, not Optional), which Expand does not read.
func knownButComputed(ctx context.Context, s schema.Schema, v tftypes.Value) bool {
	known := true
	_ = tftypes.Walk(v, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if v.IsKnown() {
			return true, nil
		}
		// An unknown element or field is judged by the attribute that holds it.
		for ; len(p.Steps()) > 0; p = p.WithoutLastStep() {
			if a, err := s.AttributeAtTerraformPath(ctx, p); err == nil {
				known = known && a.IsComputed() && !a.IsOptional()
				return false, nil
			}
		}
		known = false
		return false, nil
	})
	return known
}
