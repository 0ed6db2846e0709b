package webhookparity_test

import (
	"maps"

	"k8s.io/apimachinery/pkg/runtime"
)

// serverSet are the metadata fields the apiserver sets on create, which the engine cannot know.
var serverSet = []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"}

// withoutServerFields is obj without what the apiserver sets on create (and status, which a create
// resets), for comparing the object a dry run returns with the one the engine admitted.
func withoutServerFields(obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	delete(out, "status")
	if meta, ok := out["metadata"].(map[string]any); ok {
		maps.DeleteFunc(meta, func(k string, _ any) bool {
			for _, s := range serverSet {
				if k == s {
					return true
				}
			}
			return false
		})
	}
	return out
}
