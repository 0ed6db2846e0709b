package karpenter_test

import (
	"fmt"
	"maps"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// A tag, a billing tag and a pool's billing tag taken from another resource, so known only at
// apply: the plan has tags_all unknown, and the apply writes them on the node class and on the
// pool's copy of it.
func TestAccNodeClass_tagsKnownOnlyAtApply(t *testing.T) {
	name := acctest.Name("acc-late-tags")
	class := name + "-class"
	config := acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "terraform_data" "owner" {
  input = "ml-infra"
}

resource "mlplatform_node_class" "test" {
  name         = %[1]q
  role         = "KarpenterNodeRole-demo"
  ami_selector = [{ alias = "al2023@latest" }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  tags    = { owner = terraform_data.owner.output, project = "llm" }
  billing = { team = "${terraform_data.owner.output}-team" }
  labels  = { owner = terraform_data.owner.output }
}

resource "mlplatform_gpu_node_pool" "test" {
  name       = %[2]q
  node_class = mlplatform_node_class.test.name
  gpu        = { model = "a100-80gb" }
  on_demand  = { max_gpus = 8 }
  billing    = { project = "${terraform_data.owner.output}-pool" }
}
`, class, name)
	classTags := map[string]any{"billing.mlplatform.io/cost-centre": "cc-1234", "owner": "ml-infra", "project": "llm", "team": "ml-infra-team"}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := acctest.Gone(t, karpenter.EC2NodeClassKind, "", name); err != nil {
				return err
			}
			return acctest.Gone(t, karpenter.EC2NodeClassKind, "", class)
		},
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(nodeClassAddr, tfjsonpath.New("tags_all")),
				plancheck.ExpectUnknownValue(nodeClassAddr, tfjsonpath.New("labels_all")),
				plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionCreate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(nodeClassAddr, tfjsonpath.New("tags_all").AtMapKey("owner"), knownvalue.StringExact("ml-infra")),
				statecheck.ExpectKnownValue(nodeClassAddr, tfjsonpath.New("labels_all").AtMapKey("owner"), knownvalue.StringExact("ml-infra")),
			},
			Check: func(*terraform.State) error {
				if got := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", class), "spec", "tags"); !reflect.DeepEqual(got, classTags) {
					return fmt.Errorf("spec.tags = %v, want %v", got, classTags)
				}
				copyTags := maps.Clone(classTags)
				copyTags["project"] = "ml-infra-pool"
				return checkCopy(t, name, class, copyTags)
			},
		}},
	})
}
