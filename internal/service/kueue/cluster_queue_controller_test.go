package kueue_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// Tests against Kueue's real controller manager and webhooks (requireKueue): what the provider
// declares is what Kueue enforces.

// teamPlatform is one team's slice of the platform: an A100 flavor, a cohort, a ClusterQueue of 15
// GPUs (plus cpu and memory) that waits for Active, a LocalQueue in the team's namespace and a
// priority class. withQueue false leaves the ClusterQueue out (to destroy it), deleteTimeout
// bounds its delete (which ends as soon as Kueue lets the queue go).
func teamPlatform(prefix, namespace string, withQueue bool, deleteTimeout string) string {
	cfg := acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "a100" {
  name        = "%[1]s-a100"
  # The test's own label too, so that no node pool of a shared cluster (KUBECONFIG) is selected.
  node_labels = { "nvidia.com/gpu.product" = "NVIDIA-A100-SXM4-80GB", "mlplatform.io/test" = "%[1]s" }
}

resource "mlplatform_cohort" "org" {
  name = "%[1]s-org"
}

resource "mlplatform_workload_priority_class" "critical" {
  name  = "%[1]s-critical"
  value = 1000
}

resource "mlplatform_local_queue" "team" {
  namespace     = %[2]q
  name          = "training"
  cluster_queue = "%[1]s-team"
}
`, prefix, namespace)
	if withQueue {
		cfg += fmt.Sprintf(`
resource "mlplatform_cluster_queue" "team" {
  name               = "%[1]s-team"
  cohort             = mlplatform_cohort.org.name
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/gpu", "cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.a100.name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "15"
      }
      resource {
        name          = "cpu"
        nominal_quota = "120"
      }
      resource {
        name          = "memory"
        nominal_quota = "1500Gi"
      }
    }
  }
  timeouts {
    delete = %[2]q
  }
}

data "mlplatform_cluster_queue" "team" {
  name       = mlplatform_cluster_queue.team.name
  depends_on = [mlplatform_local_queue.team]
}
`, prefix, deleteTimeout)
	}
	return cfg
}

// workload is a Kueue Workload of one pod asking for gpus A100s, submitted to a LocalQueue.
func workload(namespace, name, queue string, gpus int) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
		"metadata": map[string]any{"name": name, "namespace": namespace},
		"spec": map[string]any{
			"queueName": queue,
			"podSets": []any{map[string]any{
				"name": "main", "count": int64(1),
				"template": map[string]any{"spec": map[string]any{
					"restartPolicy": "Never",
					"containers": []any{map[string]any{
						"name": "train", "image": "registry.example.com/train:1",
						"resources": map[string]any{
							"requests": map[string]any{"nvidia.com/gpu": fmt.Sprint(gpus), "cpu": "8", "memory": "64Gi"},
							"limits":   map[string]any{"nvidia.com/gpu": fmt.Sprint(gpus)},
						},
					}},
				}},
			}},
		},
	}}
}

func createWorkload(t *testing.T, wl *unstructured.Unstructured) {
	t.Helper()
	_, err := acctest.Dynamic(t).Resource(kueue.WorkloadKind.GVR).Namespace(wl.GetNamespace()).Create(context.Background(), wl, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create Workload %s: %v", wl.GetName(), err)
	}
}

// admittedTo is nil once Kueue has admitted the workload to queue on flavor.
func admittedTo(queue, flavor string) func(*unstructured.Unstructured) error {
	return func(wl *unstructured.Unstructured) error {
		cq, _, _ := unstructured.NestedString(wl.Object, "status", "admission", "clusterQueue")
		if cq != queue {
			return fmt.Errorf("not admitted to %s (status.admission.clusterQueue = %q; status %v)", queue, cq, wl.Object["status"])
		}
		assignments, _, _ := unstructured.NestedSlice(wl.Object, "status", "admission", "podSetAssignments")
		if len(assignments) != 1 {
			return fmt.Errorf("podSetAssignments = %v", assignments)
		}
		if got, _, _ := unstructured.NestedString(assignments[0].(map[string]any), "flavors", "nvidia.com/gpu"); got != flavor {
			return fmt.Errorf("GPUs assigned flavor %q, want %q", got, flavor)
		}
		return nil
	}
}

func TestAccClusterQueue_activeAdmitsAndHoldsDelete(t *testing.T) {
	rec := acctest.RecordWrites(t)
	prefix, ns := acctest.Name("acc-ctl"), acctest.Name("acc-ctl-research")
	queue := prefix + "-team"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t); acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				// Create waits until Kueue reports the queue Active.
				Config: teamPlatform(prefix, ns, true, "2m"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("mlplatform_cluster_queue.team", tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.mlplatform_cluster_queue.team", tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.mlplatform_cluster_queue.team", tfjsonpath.New("conditions").AtSliceIndex(0).AtMapKey("reason"), knownvalue.StringExact("Ready")),
				},
				Check: func(*terraform.State) error {
					// The LocalQueue is Active too, once its ClusterQueue is.
					waitFor(t, kueue.LocalQueueKind, ns, "training", time.Minute, func(lq *unstructured.Unstructured) error {
						conds, _, _ := unstructured.NestedSlice(lq.Object, "status", "conditions")
						for _, c := range conds {
							if c := c.(map[string]any); c["type"] == "Active" && c["status"] == "True" {
								return nil
							}
						}
						return fmt.Errorf("LocalQueue not Active: %v", conds)
					})
					// A 4-GPU workload is admitted against the declared quota; a 12-GPU one then
					// does not fit in the 15 GPUs and waits.
					createWorkload(t, workload(ns, "train-4gpu", "training", 4))
					waitFor(t, kueue.WorkloadKind, ns, "train-4gpu", time.Minute, admittedTo(queue, prefix+"-a100"))
					createWorkload(t, workload(ns, "train-12gpu", "training", 12))
					waitFor(t, kueue.ClusterQueueKind, "", queue, time.Minute, func(cq *unstructured.Unstructured) error {
						pending, _, _ := unstructured.NestedInt64(cq.Object, "status", "pendingWorkloads")
						admitted, _, _ := unstructured.NestedInt64(cq.Object, "status", "admittedWorkloads")
						if pending != 1 || admitted != 1 {
							return fmt.Errorf("pending %d, admitted %d; want 1 and 1", pending, admitted)
						}
						return nil
					})
					if adm, _, _ := unstructured.NestedMap(acctest.Get(t, kueue.WorkloadKind, ns, "train-12gpu").Object, "status", "admission"); adm != nil {
						return fmt.Errorf("the 12-GPU workload was admitted beyond the 15-GPU quota: %v", adm)
					}
					acctest.Delete(t, kueue.WorkloadKind, ns, "train-12gpu")
					return nil
				},
			},
			{
				// The data source shows the usage; the resource's status summary is refreshed.
				Config: teamPlatform(prefix, ns, true, "2m"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.mlplatform_cluster_queue.team", tfjsonpath.New("admitted_workloads"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue("data.mlplatform_cluster_queue.team", tfjsonpath.New("flavors_usage"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name": knownvalue.StringExact(prefix + "-a100"),
							"resources": knownvalue.ListExact([]knownvalue.Check{
								knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("cpu"), "total": knownvalue.StringExact("8"), "borrowed": knownvalue.StringExact("0")}),
								knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("memory"), "total": knownvalue.StringExact("64Gi"), "borrowed": knownvalue.StringExact("0")}),
								knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("nvidia.com/gpu"), "total": knownvalue.StringExact("4"), "borrowed": knownvalue.StringExact("0")}),
							}),
						}),
					})),
					statecheck.ExpectKnownValue("mlplatform_cluster_queue.team", tfjsonpath.New("admitted_workloads"), knownvalue.Int64Exact(1)),
				},
			},
			{
				// Destroying the queue while a workload is admitted, which Kueue's finalizer would
				// hold: refused at once, naming the workload, with nothing deleted.
				Config: rec.Recorded(teamPlatform(prefix, ns, false, "2m")),
				ExpectError: acctest.Words(fmt.Sprintf("Cannot delete ClusterQueue %s while it is in use", queue) +
					fmt.Sprintf(" Kueue keeps the finalizer kueue.x-k8s.io/resource-in-use on a ClusterQueue while workloads hold quota in it. Held by: Workload %s/train-4gpu.", ns)),
			},
			{
				// Nothing was deleted; once the workload is gone, the queue is destroyed.
				PreConfig: func() {
					rec.ExpectNone(t, "the refused delete")
					if ts := acctest.Get(t, kueue.ClusterQueueKind, "", queue).GetDeletionTimestamp(); ts != nil {
						t.Fatalf("the refused delete was issued: deletionTimestamp %v", ts)
					}
					deleteAndWait(t, kueue.WorkloadKind, ns, "train-4gpu")
				},
				Config: teamPlatform(prefix, ns, false, "2m"),
			},
		},
	})
}

// A queue naming a flavor that does not exist never becomes Active: the create times out with
// Kueue's reason and message, and names the missing flavor. The timeout is waited out, and Kueue
// must have reported by then: it does within a reconcile of the create, and 30s leaves a loaded
// machine room for it.
func TestAccClusterQueue_flavorNotFoundTimesOut(t *testing.T) {
	flavor := acctest.Name("acc-ctl-no-such-flavor")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{{
			Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_cluster_queue" "test" {
  name = %q
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = %q
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "15"
      }
    }
  }
  timeouts {
    create = "30s"
  }
}
`, acctest.Name("acc-ctl-missing-flavor"), flavor),
			ExpectError: regexp.MustCompile(`(?s)Active=False\s+\(FlavorNotFound:.*ResourceFlavors\s+that\s+do\s+not\s+exist:\s+` + regexp.QuoteMeta(flavor) + `\.`),
		}},
	})
}

// A queue stopped with stop_policy is inactive on purpose: create does not wait for Active.
// Setting stop_policy back to None makes the update wait until Kueue reports it Active again.
func TestAccClusterQueue_stoppedIsNotWaitedFor(t *testing.T) {
	name := acctest.Name("acc-ctl-stopped")
	config := func(stop string) string {
		return acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_cluster_queue" "test" {
  name        = %q
  stop_policy = %q
  timeouts {
    create = "2m"
    update = "2m"
  }
}
`, name, stop)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				Config: config("Hold"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("active"), knownvalue.Bool(false)),
				},
			},
			{
				Config: config("None"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("active"), knownvalue.Bool(true)),
				},
			},
		},
	})
}
