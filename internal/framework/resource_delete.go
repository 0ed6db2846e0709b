package framework

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Delete deletes every object the resource owns and waits until each is gone. An object a
// controller keeps while it is in use (DeleteExplainer) is not deleted while something that stays
// holds it: the error names the holders at once instead of waiting out the timeout.
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
	own := r.owner(ctx, req.Private, &m, false, &resp.Diagnostics)
	refs := r.refs(&m, nil)
	if _, shared := r.hooks().(KeyOwner); shared {
		ref := refs[0]
		if err := r.deleteKeys(ctx, ref, own); err != nil {
			resp.Diagnostics.AddError("Removing the keys of "+ref.String(), err.Error())
		}
		return
	}
	if c, ok := r.hooks().(DestroyChecker[M]); ok {
		if resp.Diagnostics.Append(c.CheckDestroy(ctx, r.Provider.Client, &m, own.owns)...); resp.Diagnostics.HasError() {
			return
		}
	}
	explainer, explains := r.hooks().(DeleteExplainer[M])
	for i, ref := range refs {
		obj, err := r.ownedObject(ctx, ref, own, &resp.Diagnostics)
		if err == nil && obj != nil && explains && i == 0 {
			held, lookErr := r.awaitRelease(ctx, explainer, &m)
			if lookErr != nil {
				resp.Diagnostics.AddError("Deleting "+ref.String(), held+", and whether anything does could not be told: "+
					lookErr.Error()+".\n\nNothing was deleted. Destroy again once the API server answers.")
				return
			}
			if held != "" {
				resp.Diagnostics.AddError("Cannot delete "+ref.String()+" while it is in use", held+"\n\nNothing was deleted.")
				return
			}
		}
		if err == nil && obj != nil {
			err = r.deleteObject(ctx, ref, obj)
		}
		if err == nil {
			continue
		}
		detail := err.Error()
		var stillPresent *kube.StillPresentError
		if explains && errors.As(err, &stillPresent) {
			// The delete timed out: ask with a fresh context, since ctx is spent.
			explainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			if h, err := explainer.DeleteHolders(explainCtx, r.Provider.Client, &m); err == nil && h.describe(true) != "" {
				detail += "\n\n" + h.describe(true)
			}
			cancel()
		}
		resp.Diagnostics.AddError("Deleting "+ref.String(), detail)
	}
}

// releaseGrace is how long a delete waits for the holders of an object in use to go before it
// refuses: long enough for a holder destroyed in the same run to disappear.
const releaseGrace = 15 * time.Second

// awaitRelease waits, within releaseGrace, until nothing that stays holds the object, and returns
// what still does ("" once free). A look that fails is a refusal: what cannot be seen may be in use.
// A look the credentials may not make is explained as such; any other failure (e.g. the API server
// not answering) is returned as lookErr, with the reason the object would be held.
// Each look has ctx, not the grace's deadline: a look begun just before the deadline would fail
// (client-go's rate limiter refuses a wait past it) and read as "could not be told".
func (r *Resource[M, PM]) awaitRelease(ctx context.Context, e DeleteExplainer[M], m *M) (held string, lookErr error) {
	deadline := time.Now().Add(releaseGrace)
	for {
		h, err := e.DeleteHolders(ctx, r.Provider.Client, m)
		if err != nil && apierrors.IsForbidden(err) {
			return h.Reason + ", and whether anything does could not be told: " + err.Error() +
				". Grant the provider's credentials read access to what the error names, then destroy again.", nil
		}
		if err != nil {
			return h.Reason, err
		}
		if len(h.Staying) == 0 {
			return "", nil
		}
		if time.Now().After(deadline) {
			return h.describe(false), nil
		}
		select {
		case <-ctx.Done():
			return h.describe(false), nil
		case <-time.After(time.Second):
		}
	}
}

// checkDestroyPlanned asks a DestroyChecker, when Terraform plans the resource's destroy, whether
// the destroy would lose what the provider did not write. The resource's own objects count as
// written even before an apply marks them: those an import adopted (private p) are its own.
func (r *Resource[M, PM]) checkDestroyPlanned(ctx context.Context, state tfsdk.State, p privateState, diags *diag.Diagnostics) {
	c, ok := r.hooks().(DestroyChecker[M])
	if !ok || state.Raw.IsNull() {
		return
	}
	var m M
	if diags.Append(state.Get(ctx, &m)...); diags.HasError() {
		return
	}
	own := r.owner(ctx, p, &m, false, diags)
	written := func(obj *unstructured.Unstructured) bool { return WrittenByProvider(obj) || own.owns(obj) }
	diags.Append(c.CheckDestroy(ctx, r.Provider.Client, &m, written)...)
}

// ownedObject is the object at ref when it is the instance's; nil when it does not exist or is
// someone else's, which diags (if not nil) then says is left alone.
func (r *Resource[M, PM]) ownedObject(ctx context.Context, ref ObjectRef, own owner, diags *diag.Diagnostics) (*unstructured.Unstructured, error) {
	obj, err := r.Provider.Client.Get(ctx, ref.Kind, ref.Namespace, ref.Name)
	if kube.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !own.owns(obj) {
		if diags != nil && WrittenByProvider(obj) {
			diags.AddWarning("Left "+ref.String()+" alone",
				ref.String()+" now belongs to "+ownerOf(obj)+", not to this resource: it was not deleted.")
		}
		return nil, nil
	}
	return obj, nil
}

// deleteOwned deletes the object at ref and waits until it is gone, unless it is someone else's.
func (r *Resource[M, PM]) deleteOwned(ctx context.Context, ref ObjectRef, own owner) error {
	obj, err := r.ownedObject(ctx, ref, own, nil)
	if err != nil || obj == nil {
		return err
	}
	return r.deleteObject(ctx, ref, obj)
}

// deleteObject deletes obj, read at ref, and waits until it is gone. The delete is conditional on
// obj's UID, so an object replaced since it was read is not deleted.
func (r *Resource[M, PM]) deleteObject(ctx context.Context, ref ObjectRef, obj *unstructured.Unstructured) error {
	return r.Provider.Client.Delete(ctx, ref.Kind, ref.Namespace, ref.Name, metav1.Preconditions{UID: ptr.To(obj.GetUID())})
}
