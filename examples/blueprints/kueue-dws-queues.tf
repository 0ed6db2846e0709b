# GoogleCloudPlatform/ai-on-gke@b9c1472a (2025-05-28, the file last changed in a7969b1f),
# tutorials-and-examples/workflow-orchestration/dws-examples/dws-queues.yaml: a queue whose GPU
# workloads wait for GKE's Dynamic Workload Scheduler. Kueue v1beta1's `admissionChecks:
# [dws-prov]` is v1beta2's admission_checks_strategy.
resource "mlplatform_resource_flavor" "default" {
  name = "default-flavor"
}

resource "mlplatform_admission_check" "dws" {
  name            = "dws-prov"
  controller_name = "kueue.x-k8s.io/provisioning-request"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "ProvisioningRequestConfig"
    name      = mlplatform_provisioning_request_config.dws.name
  }
}

resource "mlplatform_provisioning_request_config" "dws" {
  name                    = "dws-config"
  provisioning_class_name = "queued-provisioning.gke.io"
  managed_resources       = ["nvidia.com/gpu"]
}

resource "mlplatform_cluster_queue" "dws" {
  name               = "dws-cluster-queue"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu", "memory", "nvidia.com/gpu", "ephemeral-storage"]
    flavor {
      name = mlplatform_resource_flavor.default.name
      resource {
        name          = "cpu"
        nominal_quota = "1000000000"
      }
      resource {
        name          = "memory"
        nominal_quota = "1000000000Gi"
      }
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "1000000000"
      }
      resource {
        name          = "ephemeral-storage"
        nominal_quota = "1000000000Ti"
      }
    }
  }
  admission_checks_strategy = [{ name = mlplatform_admission_check.dws.name }]
}

resource "mlplatform_local_queue" "dws" {
  name          = "dws-local-queue"
  namespace     = "default"
  cluster_queue = mlplatform_cluster_queue.dws.name
}
