package kueue_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

const cqData = "data.mlplatform_cluster_queue.test"

// The data source reads an existing queue's spec and status (the live usage is checked against
// Kueue's controller in TestAccClusterQueue_activeAdmitsAndHoldsDelete).
func TestAccClusterQueueDataSource_readsSpecAndStatus(t *testing.T) {
	name, cohort := acctest.Name("acc-cq-data"), acctest.Name("acc-cq-data-cohort")
	config := cqConfig("", name, fmt.Sprintf(`cohort = %q
  labels = { team = "research" }`, cohort)+cqQuota(acctest.Name("acc-cq-data-a100"), `nominal_quota = "15"
        borrowing_limit = "5"`)) + `
data "mlplatform_cluster_queue" "test" {
  name = mlplatform_cluster_queue.test.name
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("cohort"), knownvalue.StringExact(cohort)),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("queueing_strategy"), knownvalue.StringExact("BestEffortFIFO")),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("labels").AtMapKey("team"), knownvalue.StringExact("research")),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("resource_groups").AtSliceIndex(0).AtMapKey("covered_resources"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("nvidia.com/gpu"), knownvalue.StringExact("cpu"), knownvalue.StringExact("memory")})),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("resource_groups").AtSliceIndex(0).AtMapKey("flavors").AtSliceIndex(0).AtMapKey("resources").AtSliceIndex(0),
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("nvidia.com/gpu"), "nominal_quota": knownvalue.StringExact("15"),
						"borrowing_limit": knownvalue.StringExact("5"), "lending_limit": knownvalue.Null(),
					})),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("admitted_workloads"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue(cqData, tfjsonpath.New("flavors_usage"), knownvalue.NotNull()),
			},
		}},
	})
}

func TestAccClusterQueueDataSource_notFound(t *testing.T) {
	name := acctest.Name("acc-cq-no-such-queue")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`data "mlplatform_cluster_queue" "test" { name = %q }`, name),
			ExpectError: acctest.Words("the cluster has no ClusterQueue " + name),
		}},
	})
}
