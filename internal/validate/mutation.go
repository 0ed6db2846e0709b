package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/go-logr/logr"
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
		for _, op := range resp.Patches {
			if err := applyOp(u, op.Operation, op.Path, op.Value); err != nil {
				return false, nil, fmt.Errorf("applying the patch of its mutating webhook: %w", err)
			}
		}
		return len(resp.Patches) > 0, nil, nil
	}
}

// applyOp applies one operation of a JSON patch (RFC 6902: add, remove or replace, the ones
// controller-runtime's patches hold) to doc, as the apiserver applies a webhook's patch to the
// object's JSON and decodes the result (whole numbers as int64).
func applyOp(doc map[string]any, op, path string, value any) error {
	if op != "add" && op != "remove" && op != "replace" {
		return fmt.Errorf("operation %q at %s: not one a defaulting webhook sends", op, path)
	}
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("path %q: not a JSON pointer below the object", path)
	}
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	var v any
	if err := utiljson.Unmarshal(b, &v); err != nil {
		return err
	}
	var tokens []string
	for _, t := range strings.Split(path[1:], "/") {
		tokens = append(tokens, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
	}
	_, err = patchAt(doc, tokens, op, v)
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, path, err)
	}
	return nil
}

// patchAt applies op at tokens below node and returns the node (a list's may be a new slice).
func patchAt(node any, tokens []string, op string, value any) (any, error) {
	tok, last := tokens[0], len(tokens) == 1
	switch n := node.(type) {
	case map[string]any:
		if last {
			if op == "remove" {
				delete(n, tok)
			} else {
				n[tok] = value
			}
			return n, nil
		}
		child, ok := n[tok]
		if !ok {
			return nil, fmt.Errorf("no field %q", tok)
		}
		c, err := patchAt(child, tokens[1:], op, value)
		n[tok] = c
		return n, err
	case []any:
		i := len(n)
		if tok != "-" {
			var err error
			if i, err = strconv.Atoi(tok); err != nil || i < 0 || i > len(n) || (i == len(n) && (op != "add" || !last)) {
				return nil, fmt.Errorf("no item %q of %d", tok, len(n))
			}
		}
		if !last {
			c, err := patchAt(n[i], tokens[1:], op, value)
			n[i] = c
			return n, err
		}
		switch op {
		case "add":
			return append(n[:i], append([]any{value}, n[i:]...)...), nil
		case "replace":
			n[i] = value
			return n, nil
		}
		return append(n[:i], n[i+1:]...), nil
	}
	return nil, fmt.Errorf("%q is below a value that is neither an object nor a list", tok)
}
