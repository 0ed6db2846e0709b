package framework_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var flavors = kube.Kind{
	GVR:  schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "resourceflavors"},
	Kind: "ResourceFlavor", Requires: "Kueue v0.15 or newer",
}

func flavorConfig(name, pool string) string {
	return fmt.Sprintf(`
resource "mlplatform_resource_flavor" "test" {
  name        = %[1]q
  node_labels = { pool = %[2]q }
}
`, name, pool)
}

// applyForeignFlavor writes a flavor as kubectl or Helm would: no owner mark.
func applyForeignFlavor(t *testing.T, name, pool string) {
	t.Helper()
	acctest.ApplyAs(t, "kubectl", flavors, "", map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"nodeLabels": map[string]any{"pool": pool}},
	})
	t.Cleanup(func() {
		err := acctest.Dynamic(t).Resource(flavors.GVR).Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("cleaning up ResourceFlavor %s: %v", name, err)
		}
	})
}

// foreignFlavorUntouched checks that the flavor written by kubectl still exists as it was written:
// neither rewritten nor marked nor deleted.
func foreignFlavorUntouched(t *testing.T, name, pool string) func(*terraform.State) error {
	return func(*terraform.State) error {
		obj, err := acctest.Dynamic(t).Resource(flavors.GVR).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("the ResourceFlavor the provider did not write is gone: %w", err)
		}
		if got := obj.Object["spec"].(map[string]any)["nodeLabels"].(map[string]any)["pool"]; got != pool {
			return fmt.Errorf("the ResourceFlavor the provider did not write was rewritten: nodeLabels.pool = %v, want %q", got, pool)
		}
		if mark, ok := obj.GetAnnotations()[framework.OwnerAnnotation]; ok {
			return fmt.Errorf("the ResourceFlavor the provider did not write was marked %q", mark)
		}
		return nil
	}
}

// Create never adopts: an object someone else wrote is refused, named, with the import command,
// and is neither rewritten nor deleted by the destroy that follows.
func TestAccOwnership_createNeverAdopts(t *testing.T) {
	name := acctest.Name("acc-adopt-me")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			applyForeignFlavor(t, name, "helm-owned")
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             foreignFlavorUntouched(t, name, "helm-owned"),
		Steps: []resource.TestStep{{
			Config: flavorConfig(name, "terraform"),
			ExpectError: regexp.MustCompile(`(?s)ResourceFlavor ` + regexp.QuoteMeta(name) + ` already exists and was not created by this\s+resource.*` +
				`terraform import mlplatform_resource_flavor.<name> ` + regexp.QuoteMeta(name)),
		}},
	})
}

// Import is the one way to take an object over: after it the resource manages the object, marks
// it on the next apply, and destroy deletes it.
func TestAccOwnership_importAdopts(t *testing.T) {
	name := acctest.Name("acc-import-me")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			applyForeignFlavor(t, name, "helm-owned")
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", flavors),
		Steps: []resource.TestStep{
			{
				Config:             flavorConfig(name, "helm-owned"),
				ResourceName:       "mlplatform_resource_flavor.test",
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
			},
			{
				Config: flavorConfig(name, "terraform"),
				Check: func(*terraform.State) error {
					obj := acctest.Get(t, flavors, "", name)
					if got := obj.GetAnnotations()[framework.OwnerAnnotation]; got != "mlplatform_resource_flavor/"+name {
						return fmt.Errorf("owner mark after the first apply = %q", got)
					}
					return nil
				},
			},
		},
	})
}

// An object deleted outside Terraform and written again by someone else is not the resource's:
// refresh lets it go (with a warning), the create that follows refuses it, and destroy leaves it.
func TestAccOwnership_replacedOutOfBandIsLeftAlone(t *testing.T) {
	name := acctest.Name("acc-replaced")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             foreignFlavorUntouched(t, name, "helm-owned"),
		Steps: []resource.TestStep{
			{Config: flavorConfig(name, "terraform")},
			{
				PreConfig: func() {
					acctest.Delete(t, flavors, "", name)
					applyForeignFlavor(t, name, "helm-owned")
				},
				Config:      flavorConfig(name, "terraform"),
				ExpectError: regexp.MustCompile(`ResourceFlavor ` + regexp.QuoteMeta(name) + ` already exists and was not created by this`),
			},
		},
	})
}
