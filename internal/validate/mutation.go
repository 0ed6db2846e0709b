package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/go-logr/logr"
	"gomodules.xyz/jsonpatch/v2"
	evanphxpatch "gopkg.in/evanphx/json-patch.v4"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// mutateFunc is the mutating admission step of one kind: upstream's mutating webhook run on an
// object as the apiserver decoded it (pruned and defaulted), which it changes in place as the
// webhook's patch would. It reports whether it changed anything, or the webhook's refusal; the
// error is for an object the step cannot judge.
type mutateFunc func(ctx context.Context, u map[string]any) (changed bool, refusal field.ErrorList, err error)

// mutations are the kinds whose upstream has a mutating webhook.
var mutations = map[schema.GroupVersionKind]mutateFunc{
	kueueGVK("ClusterQueue"):   mutateClusterQueue,
	kueueGVK("ResourceFlavor"): mutateResourceFlavor,
}

// mutate runs the mutating admission step of gvk, if upstream has one, on u.
func mutate(ctx context.Context, gvk schema.GroupVersionKind, u map[string]any) (bool, field.ErrorList, error) {
	m, ok := mutations[gvk]
	if !ok {
		return false, nil, nil
	}
	return m(ctx, u)
}

// defaultingWebhook mutates as a controller-runtime defaulting webhook does, with its own handler
// (admission.WithDefaulter): it decodes the object into upstream's type, runs Default, and patches
// the object with the difference between the two encodings. That difference is more than what
// Default sets: every field the type encodes without omitempty comes back, a zero value where the
// object had none (a removed nominalQuota becomes 0), and quantities come back canonical.
func defaultingWebhook[T runtime.Object](scheme func() *runtime.Scheme, d admission.Defaulter[T]) mutateFunc {
	var (
		once    sync.Once
		handler admission.Handler
	)
	return func(ctx context.Context, u map[string]any) (bool, field.ErrorList, error) {
		// The handler's own Handle, not the Webhook's: that one logs through controller-runtime's
		// global logger, which the provider never sets (see kueueWebhook).
		once.Do(func() { handler = admission.WithDefaulter(scheme(), d).Handler })
		raw, err := json.Marshal(u)
		if err != nil {
			return false, nil, fmt.Errorf("encoding the object for its mutating webhook: %w", err)
		}
		req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
			Operation: admissionv1.Create,
			Object:    runtime.RawExtension{Raw: raw},
		}}
		resp := handler.Handle(ctrllog.IntoContext(ctx, logr.Discard()), req)
		if !resp.Allowed {
			msg := ""
			if resp.Result != nil {
				msg = resp.Result.Message
			}
			return false, field.ErrorList{textRefusal(msg)}, nil
		}
		if err := applyPatch(u, resp.Patches); err != nil {
			return false, nil, fmt.Errorf("applying the patch of its mutating webhook: %w", err)
		}
		return len(resp.Patches) > 0, nil, nil
	}
}

// applyPatch applies a webhook's JSON patch to u in place as the apiserver applies it: with
// the apiserver's own JSON patch library, on the object's JSON, decoding the result again (whole
// numbers as int64).
func applyPatch(u map[string]any, ops []jsonpatch.JsonPatchOperation) error {
	if len(ops) == 0 {
		return nil
	}
	doc, err := json.Marshal(u)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	patch, err := evanphxpatch.DecodePatch(raw)
	if err != nil {
		return err
	}
	if doc, err = patch.Apply(doc); err != nil {
		return err
	}
	patched := map[string]any{}
	if err := utiljson.Unmarshal(doc, &patched); err != nil {
		return err
	}
	clear(u)
	maps.Copy(u, patched)
	return nil
}
