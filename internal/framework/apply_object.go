package framework

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ApplyObject turns a typed upstream object into the body of a server-side apply, for APIs that
// publish no apply configurations (Karpenter). A typed object serialises its zero values (an
// empty status, a null creationTimestamp, nil lists without omitempty), and an apply that sends
// a field claims it; so status is dropped and every null, empty map and empty list is pruned,
// leaving only what the Spec set.
func ApplyObject(obj runtime.Object, gvk schema.GroupVersionKind) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", gvk.Kind, err)
	}
	delete(u, "status")
	u["apiVersion"], u["kind"] = gvk.GroupVersion().String(), gvk.Kind
	prune(u)
	return u, nil
}

// prune removes nulls, empty maps and empty lists from m, depth first.
func prune(m map[string]any) {
	for k, v := range m {
		if pruneValue(v) {
			delete(m, k)
		}
	}
}

// pruneValue prunes inside v and reports whether v itself is empty.
func pruneValue(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		prune(t)
		return len(t) == 0
	case []any:
		for _, e := range t {
			if m, ok := e.(map[string]any); ok {
				prune(m)
			}
		}
		return len(t) == 0
	}
	return false
}
