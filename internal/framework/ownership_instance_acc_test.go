package framework_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Ownership per resource instance (issue 23): an object belongs to the one resource instance that
// created it, never to another that declares the same name, whether in another workspace, in
// another block of the same configuration, or as its own replacement.

// workspaceFlavor is a root module with flavor `name`, whose node label pool says who wrote it.
func workspaceFlavor(name, pool, lifecycle string) string {
	return acctest.WorkspaceProviders + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "f" {
  name        = %[1]q
  node_labels = { pool = %[2]q }%[3]s
}
`, name, pool, lifecycle)
}

// instanceOf is the owner id the flavor carries.
func instanceOf(obj *unstructured.Unstructured) string {
	return obj.GetAnnotations()[framework.OwnerIDAnnotation]
}

// mustFail runs the CLI and fails the test unless it fails with output matching want.
func mustFail(t *testing.T, ws *acctest.Workspace, want *regexp.Regexp, args ...string) string {
	t.Helper()
	out, _, err := ws.Run(t, args...)
	if err == nil {
		t.Fatalf("%s succeeded; want it refused:\n%s", strings.Join(args, " "), out)
	}
	if !want.MatchString(out) {
		t.Fatalf("%s failed, but not with %q:\n%s", strings.Join(args, " "), want, out)
	}
	return out
}

// Defect 1: two workspaces declare one ResourceFlavor. The second apply is refused, naming the
// first's instance, and writes nothing; its destroy deletes nothing; the first plans no change.
// Once the second owns it, the first's destroy leaves it.
func TestAccOwnership_twoWorkspacesOneName(t *testing.T) {
	acctest.RequireCluster(t)
	t.Parallel()
	name := acctest.Name("acc-two-ws")
	first := acctest.NewWorkspace(t, workspaceFlavor(name, "first", ""))
	first.Must(t, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { first.Must(t, "destroy", "-auto-approve", "-input=false") })
	before := acctest.Get(t, flavors, "", name)

	second := acctest.NewWorkspace(t, workspaceFlavor(name, "second", ""))
	mustFail(t, second, acctest.Words("ResourceFlavor "+name+" already exists and belongs to another resource instance: mlplatform_resource_flavor "+
		name+" (instance "+instanceOf(before)+")"), "apply", "-auto-approve", "-input=false")
	if st := second.State(t); len(st) != 0 {
		t.Errorf("the refused apply left state: %v", st)
	}
	second.Must(t, "destroy", "-auto-approve", "-input=false")

	after := acctest.Get(t, flavors, "", name)
	if after.GetUID() != before.GetUID() || after.GetResourceVersion() != before.GetResourceVersion() {
		t.Errorf("the first workspace's flavor was rewritten or replaced: uid %s -> %s, resourceVersion %s -> %s",
			before.GetUID(), after.GetUID(), before.GetResourceVersion(), after.GetResourceVersion())
	}
	if out := first.Must(t, "plan", "-detailed-exitcode", "-input=false"); !strings.Contains(out, "No changes") {
		t.Errorf("the first workspace plans changes after the second's apply and destroy:\n%s", out)
	}

	// The first's flavor is deleted outside Terraform and the second creates its own: the first's
	// destroy (without a refresh that would forget it) leaves the second's, and says so.
	acctest.Delete(t, flavors, "", name)
	second.Must(t, "apply", "-auto-approve", "-input=false")
	theirs := acctest.Get(t, flavors, "", name)
	out := first.Must(t, "destroy", "-auto-approve", "-input=false", "-refresh=false")
	if !acctest.Words("Left ResourceFlavor "+name+" alone").MatchString(out) ||
		!acctest.Words("now belongs to mlplatform_resource_flavor "+name+" (instance "+instanceOf(theirs)+")").MatchString(out) {
		t.Errorf("the destroy does not say it left the second workspace's flavor:\n%s", out)
	}
	if got := acctest.Get(t, flavors, "", name); got.GetUID() != theirs.GetUID() {
		t.Errorf("the first workspace's destroy replaced or deleted the second's flavor")
	}
	second.Must(t, "destroy", "-auto-approve", "-input=false")
}

// Defect 2: two resource blocks of one configuration that would write one object are refused at
// plan, whether both are new or one is applied already, and nothing is written.
func TestAccOwnership_twoBlocksOneName(t *testing.T) {
	name := acctest.Name("acc-two-blocks")
	block := func(res, pool string) string {
		return fmt.Sprintf("resource \"mlplatform_resource_flavor\" %q {\n  name        = %q\n  node_labels = { pool = %q }\n}\n", res, name, pool)
	}
	refused := regexp.MustCompile(`ResourceFlavor ` + regexp.QuoteMeta(name) + `\s+would\s+be\s+written\s+by\s+two\s+resources\s+of\s+this\s+configuration:\s+` +
		`mlplatform_resource_flavor\s+"` + regexp.QuoteMeta(name) + `"\s+and\s+mlplatform_resource_flavor\s+"` + regexp.QuoteMeta(name) + `"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", flavors),
		Steps: []resource.TestStep{
			{Config: block("a", "a") + block("b", "b"), PlanOnly: true, ExpectError: refused},
			{Config: block("a", "a"), Check: func(*terraform.State) error {
				if pool := acctest.Get(t, flavors, "", name).Object["spec"].(map[string]any)["nodeLabels"].(map[string]any)["pool"]; pool != "a" {
					return fmt.Errorf("pool = %v, want a", pool)
				}
				return nil
			}},
			{Config: block("a", "a") + block("b", "b"), ExpectError: refused},
			{Config: block("a", "a"), PlanOnly: true},
		},
	})
}

// Defect 3: create_before_destroy with the name unchanged: a forced replacement is refused, saying
// why and what to do, and deletes nothing; without create_before_destroy it replaces the object.
func TestAccOwnership_replacementWithTheSameName(t *testing.T) {
	acctest.RequireCluster(t)
	t.Parallel()
	name := acctest.Name("acc-cbd")
	ws := acctest.NewWorkspace(t, workspaceFlavor(name, "x", "\n  lifecycle {\n    create_before_destroy = true\n  }"))
	ws.Must(t, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { ws.Must(t, "destroy", "-auto-approve", "-input=false") })
	before := acctest.Get(t, flavors, "", name)

	mustFail(t, ws, acctest.Words("remove create_before_destroy from its lifecycle (Terraform then destroys the old object first) or change the name"),
		"apply", "-auto-approve", "-input=false", "-replace=mlplatform_resource_flavor.f")
	after := acctest.Get(t, flavors, "", name)
	if after.GetUID() != before.GetUID() {
		t.Fatalf("the refused replacement replaced the flavor: uid %s -> %s", before.GetUID(), after.GetUID())
	}
	if got := ws.State(t)["mlplatform_resource_flavor.f"].UID; got != string(before.GetUID()) {
		t.Errorf("state holds uid %q, the cluster %s", got, before.GetUID())
	}
	if out := ws.Must(t, "plan", "-input=false"); !strings.Contains(out, "No changes") {
		t.Errorf("plan after the refused replacement:\n%s", out)
	}

	ws.WriteConfig(t, workspaceFlavor(name, "x", ""))
	ws.Must(t, "apply", "-auto-approve", "-input=false", "-replace=mlplatform_resource_flavor.f")
	replaced := acctest.Get(t, flavors, "", name)
	if replaced.GetUID() == before.GetUID() || instanceOf(replaced) == instanceOf(before) {
		t.Errorf("destroy-then-create kept uid %s and instance %s", replaced.GetUID(), instanceOf(replaced))
	}
	if got := ws.State(t)["mlplatform_resource_flavor.f"].UID; got != string(replaced.GetUID()) {
		t.Errorf("state holds uid %q, the cluster %s", got, replaced.GetUID())
	}
}

// Defect 9: an import of an object that another resource instance marked is refused, naming the
// owner and how to release the object; once released, it imports.
func TestAccOwnership_importOfAnotherInstancesObject(t *testing.T) {
	name := acctest.Name("acc-import-owned")
	owned := func(annotations map[string]any) func() {
		return func() {
			acctest.ApplyAs(t, "mlplatform:resource_flavor:0badc0de", flavors, "", map[string]any{
				"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
				"metadata": map[string]any{"name": name, "annotations": annotations},
				"spec":     map[string]any{"nodeLabels": map[string]any{"pool": "other"}},
			})
		}
	}
	importStep := func(want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: flavorConfig(name, "other"), ResourceName: "mlplatform_resource_flavor.test",
			ImportState: true, ImportStateId: name, ImportStatePersist: true, ExpectError: want}
	}
	release := acctest.Words("kubectl annotate resourceflavors.kueue.x-k8s.io " + name + " mlplatform.io/owner- mlplatform.io/owner-id-")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", flavors),
		Steps: []resource.TestStep{
			// Another resource type's mark (an earlier version said "it does not exist").
			func() resource.TestStep {
				s := importStep(regexp.MustCompile(`(?s)Cannot import ` + regexp.QuoteMeta(name) + `.*belongs to mlplatform_gpu_node_pool\s+x\s+\(instance\s+0badc0de\).*` +
					release.String()))
				s.PreConfig = owned(map[string]any{framework.OwnerAnnotation: "mlplatform_gpu_node_pool/x", framework.OwnerIDAnnotation: "0badc0de"})
				return s
			}(),
			func() resource.TestStep {
				s := importStep(regexp.MustCompile(`(?s)Cannot import ` + regexp.QuoteMeta(name) + `.*belongs to mlplatform_resource_flavor\s+` +
					regexp.QuoteMeta(name) + `\s+\(instance\s+0badc0de\).*` + release.String()))
				s.PreConfig = owned(map[string]any{framework.OwnerAnnotation: "mlplatform_resource_flavor/" + name, framework.OwnerIDAnnotation: "0badc0de"})
				return s
			}(),
			// A mark without an id (an earlier version of the provider wrote it) is refused too.
			func() resource.TestStep {
				s := importStep(regexp.MustCompile(`(?s)written\s+by\s+an\s+earlier\s+version\s+of\s+the\s+provider.*` + release.String()))
				s.PreConfig = func() {
					obj := acctest.Get(t, flavors, "", name)
					unstructured.RemoveNestedField(obj.Object, "metadata", "annotations", framework.OwnerIDAnnotation)
					update(t, obj)
				}
				return s
			}(),
			func() resource.TestStep {
				s := importStep(nil)
				s.PreConfig = func() {
					obj := acctest.Get(t, flavors, "", name)
					unstructured.RemoveNestedField(obj.Object, "metadata", "annotations", framework.OwnerAnnotation)
					update(t, obj)
				}
				return s
			}(),
			{Config: flavorConfig(name, "terraform")},
		},
	})
}

// update writes obj back as `kubectl annotate` does.
func update(t *testing.T, obj *unstructured.Unstructured) {
	t.Helper()
	if _, err := acctest.Dynamic(t).Resource(flavors.GVR).Update(t.Context(), obj, metav1.UpdateOptions{FieldManager: "kubectl-annotate"}); err != nil {
		t.Fatal(err)
	}
}

// preInstanceRevision is the last revision of the provider before ownership per instance: it
// marks objects with `mlplatform_<type>/<id>` only, and writes them under the provider's field
// manager.
const preInstanceRevision = "4d754aa"

// Objects an earlier version of the provider wrote stay the instance's whose state holds them: it
// plans no change, updates them (and stays their only field manager, so a label it drops goes),
// and destroys them; any other instance is refused.
func TestAccOwnership_upgradeFromMarksWithoutInstance(t *testing.T) {
	acctest.RequireCluster(t)
	t.Parallel()
	name := acctest.Name("acc-upgrade")
	config := func(pool, labels string) string {
		return acctest.WorkspaceProviders + fmt.Sprintf("resource \"mlplatform_resource_flavor\" \"f\" {\n  name        = %q\n  node_labels = { pool = %q }\n%s}\n", name, pool, labels)
	}
	ws := acctest.NewWorkspace(t, config("old", "  labels = { stage = \"old\" }\n"))
	ws.WithProviderAt(t, preInstanceRevision).Must(t, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { _, _, _ = ws.Run(t, "destroy", "-auto-approve", "-input=false") })
	if obj := acctest.Get(t, flavors, "", name); instanceOf(obj) != "" || obj.GetAnnotations()[framework.OwnerAnnotation] != "mlplatform_resource_flavor/"+name {
		t.Fatalf("the earlier version's marks: %v", obj.GetAnnotations())
	}

	if out := ws.Must(t, "plan", "-input=false"); !strings.Contains(out, "No changes") {
		t.Errorf("the upgraded provider plans changes on the earlier version's object:\n%s", out)
	}
	other := acctest.NewWorkspace(t, config("other", ""))
	mustFail(t, other, acctest.Words("written by an earlier version of the provider, before instance ids"), "apply", "-auto-approve", "-input=false")

	ws.WriteConfig(t, config("new", ""))
	ws.Must(t, "apply", "-auto-approve", "-input=false")
	obj := acctest.Get(t, flavors, "", name)
	if instanceOf(obj) == "" {
		t.Errorf("the update did not mark the instance: %v", obj.GetAnnotations())
	}
	if _, ok := obj.GetLabels()["stage"]; ok {
		t.Errorf("label stage, dropped from the configuration, is still there: %v", obj.GetLabels())
	}
	for _, e := range obj.GetManagedFields() {
		if e.Manager != kube.DefaultFieldManager {
			t.Errorf("field manager %q writes the upgraded object; want only %q", e.Manager, kube.DefaultFieldManager)
		}
	}
	ws.Must(t, "destroy", "-auto-approve", "-input=false")
	if err := acctest.Gone(t, flavors, "", name); err != nil {
		t.Error(err)
	}
}
