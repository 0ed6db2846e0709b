package acctest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ImportReleased is an import step (ImportState, with ImportStateId) of a resource that the test's
// own state holds. The provider imports only objects that no resource instance owns, so, as a user
// moving a resource to another state does after `terraform state rm`, the step first releases the
// resource's objects (removes their owner marks, or its key claims on a shared ConfigMap, as
// `kubectl annotate` would); after the import it gives the marks back, so that the state's
// instance still owns them in the next step.
func ImportReleased(t *testing.T, step resource.TestStep) resource.TestStep {
	typeSuffix, _, _ := strings.Cut(strings.TrimPrefix(step.ResourceName, framework.ResourceTypePrefix), ".")
	// The import is another resource instance, with an owner id of its own.
	step.ImportStateVerifyIgnore = append(step.ImportStateVerifyIgnore, "owner_id")
	var released []releasedObject
	pre, check := step.PreConfig, step.ImportStateCheck
	step.PreConfig = func() {
		if pre != nil {
			pre()
		}
		released = release(t, typeSuffix, step.ImportStateId)
		if len(released) == 0 {
			t.Fatalf("no object carries the marks of %s%s %q", framework.ResourceTypePrefix, typeSuffix, step.ImportStateId)
		}
	}
	step.ImportStateCheck = func(states []*terraform.InstanceState) error {
		restore(t, released)
		if check != nil {
			return check(states)
		}
		return nil
	}
	return step
}

// releasedObject is an object whose marks ImportReleased removed.
type releasedObject struct {
	gvr             schema.GroupVersionResource
	namespace, name string
	marks           map[string]string
}

// markedGroups are the API groups of the objects the provider writes.
var markedGroups = map[string]bool{
	"": true, "kueue.x-k8s.io": true, "karpenter.sh": true, "karpenter.k8s.aws": true, "argoproj.io": true,
	"monitoring.coreos.com": true, "rbac.authorization.k8s.io": true, "admissionregistration.k8s.io": true,
}

var (
	markedKindsOnce sync.Once
	markedKinds     []schema.GroupVersionResource
)

// kindsToRelease are the resources of markedGroups that the cluster serves and that can be listed
// and updated.
func kindsToRelease(t *testing.T) []schema.GroupVersionResource {
	t.Helper()
	markedKindsOnce.Do(func() {
		lists, err := discovery.NewDiscoveryClientForConfigOrDie(RestConfig(t)).ServerPreferredResources()
		if err != nil {
			t.Logf("discovery: %v", err) // partial results are enough
		}
		for _, l := range lists {
			gv, _ := schema.ParseGroupVersion(l.GroupVersion)
			if !markedGroups[gv.Group] {
				continue
			}
			for _, r := range l.APIResources {
				if strings.Contains(r.Name, "/") || !hasVerbs(r.Verbs, "list", "update") {
					continue
				}
				markedKinds = append(markedKinds, gv.WithResource(r.Name))
			}
		}
	})
	return markedKinds
}

func hasVerbs(verbs metav1.Verbs, want ...string) bool {
	for _, w := range want {
		found := false
		for _, v := range verbs {
			found = found || v == w
		}
		if !found {
			return false
		}
	}
	return true
}

// release removes, from every object, the marks of resource typeSuffix with Terraform ID id, and
// the key claims of that type from a ConfigMap of that ID, and returns what it removed.
func release(t *testing.T, typeSuffix, id string) []releasedObject {
	t.Helper()
	mark := framework.OwnerMark(typeSuffix, id)
	claim := framework.ResourceTypePrefix + typeSuffix + "/"
	var out []releasedObject
	for _, gvr := range kindsToRelease(t) {
		list, err := Dynamic(t).Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatalf("listing %s: %v", gvr, err)
		}
		for i := range list.Items {
			obj := &list.Items[i]
			marks := map[string]string{}
			for k, v := range obj.GetAnnotations() {
				switch {
				case k == framework.OwnerAnnotation && v == mark, k == framework.OwnerIDAnnotation && obj.GetAnnotations()[framework.OwnerAnnotation] == mark:
					marks[k] = v
				case strings.HasPrefix(v, claim) && gvr.Resource == "configmaps" && objectName(obj.GetNamespace(), obj.GetName()) == id:
					marks[k] = v
				}
			}
			if len(marks) == 0 {
				continue
			}
			setAnnotations(t, gvr, obj, marks, false)
			out = append(out, releasedObject{gvr: gvr, namespace: obj.GetNamespace(), name: obj.GetName(), marks: marks})
		}
	}
	return out
}

// restore gives the released objects their marks back.
func restore(t *testing.T, released []releasedObject) {
	t.Helper()
	for _, r := range released {
		obj, err := Dynamic(t).Resource(r.gvr).Namespace(r.namespace).Get(context.Background(), r.name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("restoring the marks of %s %s: %v", r.gvr.Resource, objectName(r.namespace, r.name), err)
		}
		setAnnotations(t, r.gvr, obj, r.marks, true)
	}
}

// setAnnotations adds (or, with add false, removes) annotations, as `kubectl annotate` does.
func setAnnotations(t *testing.T, gvr schema.GroupVersionResource, obj *unstructured.Unstructured, marks map[string]string, add bool) {
	t.Helper()
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	for k, v := range marks {
		if add {
			ann[k] = v
		} else {
			delete(ann, k)
		}
	}
	obj.SetAnnotations(ann)
	_, err := Dynamic(t).Resource(gvr).Namespace(obj.GetNamespace()).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-annotate"})
	if err != nil {
		t.Fatal(fmt.Errorf("annotating %s %s: %w", gvr.Resource, objectName(obj.GetNamespace(), obj.GetName()), err))
	}
}
