package framework

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Plan-time claims: two resource instances of one configuration that would write one object (same
// kind, namespace and name), or one key of a shared ConfigMap, are refused at plan. The provider
// process plans every resource of one provider configuration, so it sees both; a resource instance
// is told apart by its instance id (a new one, not in state yet, by an id made for the plan).

// claimant is a resource instance planning to write an object or key.
type claimant struct {
	instance string
	existing bool   // in state already (not a create)
	what     string // e.g. `mlplatform_resource_flavor "a100"`
	config   tftypes.Value
}

// replaces reports whether one of two claimants may be the other's replacement being planned:
// Terraform plans a forced replacement (-replace, replace_triggered_by) twice, first with the
// prior state, then as a create, with the same configuration.
func (c claimant) replaces(other claimant) bool {
	return c.existing != other.existing && c.what == other.what && c.config.Equal(other.config)
}

// claims are the claims of one provider process.
type claims struct {
	mu sync.Mutex
	m  map[string]claimant
}

// claim records that c writes key, unless another instance did first; it returns that one.
func (cs *claims) claim(key string, c claimant) (other claimant, taken bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.m == nil {
		cs.m = map[string]claimant{}
	}
	if o, ok := cs.m[key]; ok && o.instance != c.instance && !o.replaces(c) {
		return o, true
	}
	cs.m[key] = c
	return claimant{}, false
}

// claimPlanned refuses, at plan, an object or key of the planned resource that another resource
// instance of the configuration writes too. A plan that replaces the resource claims nothing: the
// create Terraform plans next does.
func (r *Resource[M, PM]) claimPlanned(ctx context.Context, m *M, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if len(resp.RequiresReplace) > 0 {
		return
	}
	meta := PM(m).Meta()
	ns := namespaceOf(PM(m))
	if meta.Name.IsUnknown() || isUnknownNamespace(ctx, req) {
		return
	}
	id := objectID(ns, meta.Name.ValueString())
	c := claimant{instance: newInstanceID(), what: fmt.Sprintf("%s%s %q", ResourceTypePrefix, r.Spec.TypeSuffix(), id), config: req.Config.Raw}
	if !req.State.Raw.IsNull() {
		c.existing = true
		if meta.OwnerID.ValueString() != "" {
			c.instance = meta.OwnerID.ValueString()
		}
	}
	if k, ok := r.hooks().(KeyOwner); ok {
		keys, known, diags := k.PlannedKeys(ctx, req.Plan)
		if resp.Diagnostics.Append(diags...); !known || diags.HasError() {
			return
		}
		slices.Sort(keys)
		c.what += " declaring keys " + strings.Join(keys, ", ")
		for _, key := range keys {
			if other, taken := r.Provider.claims.claim("key\x00"+id+"\x00"+key, c); taken {
				resp.Diagnostics.AddError("Key declared by two resources",
					fmt.Sprintf("Key %q of ConfigMap %s is declared by two resources: %s and %s. A key of a shared "+
						"ConfigMap belongs to one resource: remove it from one of them.", key, id, other.what, c.what))
			}
		}
		return
	}
	refs := r.refs(m, nil)
	if p, ok := r.hooks().(PlannedRefs[M]); ok {
		var known bool
		if refs, known = p.PlannedRefs(m); !known {
			return
		}
	}
	for _, ref := range refs {
		if other, taken := r.Provider.claims.claim("object\x00"+ref.Kind.GVR.String()+"\x00"+ref.Namespace+"\x00"+ref.Name, c); taken {
			resp.Diagnostics.AddError("Object declared by two resources",
				fmt.Sprintf("%s would be written by two resources of this configuration: %s and %s. An object belongs "+
					"to one resource: remove one of them or give it another name.", ref, other.what, c.what))
		}
	}
}

// isUnknownNamespace reports whether the plan's namespace (for a namespaced resource) is unknown.
func isUnknownNamespace(ctx context.Context, req resource.ModifyPlanRequest) bool {
	var ns types.String
	if req.Plan.GetAttribute(ctx, path.Root("namespace"), &ns).HasError() {
		return false // no namespace attribute: cluster-scoped
	}
	return ns.IsUnknown()
}
