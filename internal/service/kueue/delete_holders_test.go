package kueue_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// flavorAndQueue is a flavor and, withQueue, a ClusterQueue that names it by its literal name, so
// that Terraform knows of no order between them (as when the queue lives in another workspace).
func flavorAndQueue(name string, withFlavor, withQueue bool) string {
	cfg := acctest.ProviderBlock("", acctest.CostCentreDefault)
	if withFlavor {
		cfg += fmt.Sprintf(`
resource "mlplatform_resource_flavor" "held" {
  name        = %[1]q
  node_labels = { "mlplatform.io/test" = %[1]q }
}
`, name)
	}
	if withQueue {
		// The first apply creates the flavor before the queue; later the queue stays without it.
		dependsOn := ""
		if withFlavor {
			dependsOn = "depends_on = [mlplatform_resource_flavor.held]"
		}
		cfg += fmt.Sprintf(`
resource "mlplatform_cluster_queue" "holder" {
  name               = "%[1]s-q"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu"]
    flavor {
      name = %[1]q
      resource {
        name          = "cpu"
        nominal_quota = "8"
      }
    }
  }
  %[2]s
}
`, name, dependsOn)
	}
	return cfg
}

// A flavor that a ClusterQueue still names is not deleted (Kueue's finalizer would hold it until
// the delete timeout): the error names the queue at once and says how to replace a flavor. When
// the queue goes in the same run, the flavor's delete waits for it and succeeds.
func TestAccResourceFlavor_deleteWhileNamedByAQueueIsRefused(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-held")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", kueue.ResourceFlavorKind),
		Steps: []resource.TestStep{
			{Config: flavorAndQueue(name, true, true)},
			{
				// The flavor goes, the queue that names it stays.
				Config: rec.Recorded(flavorAndQueue(name, false, true)),
				ExpectError: acctest.Words(fmt.Sprintf("Cannot delete ResourceFlavor %s while it is in use", name) +
					" Kueue keeps the finalizer kueue.x-k8s.io/resource-in-use on a ResourceFlavor while a ClusterQueue names it" +
					fmt.Sprintf(" in its resource groups. Held by: ClusterQueue %s-q.", name)),
			},
			{
				// Nothing was deleted; the flavor and the queue then go together.
				PreConfig: func() {
					rec.ExpectNone(t, "the refused delete")
					if ts := acctest.Get(t, kueue.ResourceFlavorKind, "", name).GetDeletionTimestamp(); ts != nil {
						t.Fatalf("the refused delete was issued: deletionTimestamp %v", ts)
					}
				},
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault),
			},
		},
	})
}

// renamedFlavor is a flavor with create_before_destroy and a queue that references it, as the
// flavor's documentation recommends, beside two topologies; topology names the flavor's ("a" or
// "b"; "" for none).
func renamedFlavor(name, topology string) string {
	cfg := acctest.ProviderBlock("", acctest.CostCentreDefault)
	for _, t := range []string{"a", "b"} {
		cfg += fmt.Sprintf("resource \"mlplatform_topology\" %[1]q {\n  name   = \"%[2]s-%[1]s\"\n  levels = [\"kubernetes.io/hostname\"]\n}\n", t, name)
	}
	topo := ""
	if topology != "" {
		topo = "\n  topology_name = mlplatform_topology." + topology + ".name"
	}
	return cfg + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "f" {
  name        = %[1]q
  node_labels = { "mlplatform.io/test" = "renamed" }%[2]s
  lifecycle {
    create_before_destroy = true
  }
}

resource "mlplatform_cluster_queue" "q" {
  name               = "%[1]s-queue"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu"]
    flavor {
      name = mlplatform_resource_flavor.f.name
      resource {
        name          = "cpu"
        nominal_quota = "8"
      }
    }
  }
  lifecycle {
    create_before_destroy = true
  }
}
`, name, topo)
}

// What the flavor's documentation recommends works: renamed under create_before_destroy while a
// queue names it, the new flavor is created, the queue moves to it and the old one goes last. A
// replacement that keeps the name is refused before anything is deleted, with the reason.
func TestAccResourceFlavor_createBeforeDestroyAsDocumented(t *testing.T) {
	old, renamed := acctest.Name("acc-cbd-old"), acctest.Name("acc-cbd-new")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", kueue.ResourceFlavorKind),
		Steps: []resource.TestStep{
			{Config: renamedFlavor(old, "")},
			{
				Config: renamedFlavor(renamed, ""),
				Check: func(*terraform.State) error {
					if err := acctest.Gone(t, kueue.ResourceFlavorKind, "", old); err != nil {
						return err
					}
					acctest.Get(t, kueue.ResourceFlavorKind, "", renamed)
					return nil
				},
			},
			{Config: renamedFlavor(renamed, "a")},
			{
				// Another topology forces a replacement that keeps the name: refused, nothing deleted.
				Config: renamedFlavor(renamed, "b"),
				ExpectError: acctest.Words("the new object cannot be created while the one it replaces holds the name: " +
					"remove create_before_destroy from its lifecycle"),
			},
			{
				PreConfig: func() {
					if ts := acctest.Get(t, kueue.ResourceFlavorKind, "", renamed).GetDeletionTimestamp(); ts != nil {
						t.Fatalf("the refused replacement deleted the flavor: deletionTimestamp %v", ts)
					}
				},
				Config:   renamedFlavor(renamed, "a"),
				PlanOnly: true,
			},
		},
	})
}
