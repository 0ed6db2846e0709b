# GoogleCloudPlatform/ai-on-gke@b9c1472a (2025-05-28, the file last changed in a7969b1f),
# tutorials-and-examples/workflow-orchestration/dws-examples/dws_and_reservation.yaml: a reserved
# node pool first, then GKE's Dynamic Workload Scheduler for what does not fit in it.
resource "mlplatform_resource_flavor" "reservation" {
  name        = "reservation"
  node_labels = { "cloud.google.com/gke-nodepool" = "reservation-nodepool" }
}

resource "mlplatform_resource_flavor" "dws" {
  name        = "dws"
  node_labels = { "cloud.google.com/gke-nodepool" = "dws-nodepool" }
}

resource "mlplatform_cluster_queue" "this" {
  name               = "cluster-queue"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu", "memory", "nvidia.com/gpu"]
    flavor {
      name = mlplatform_resource_flavor.reservation.name
      resource {
        name          = "cpu"
        nominal_quota = "9"
      }
      resource {
        name          = "memory"
        nominal_quota = "36Gi"
      }
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "9"
      }
    }
    flavor {
      name = mlplatform_resource_flavor.dws.name
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
    }
  }
  admission_checks_strategy = [{
    name       = mlplatform_admission_check.dws.name
    on_flavors = [mlplatform_resource_flavor.dws.name]
  }]
}

resource "mlplatform_local_queue" "this" {
  name          = "user-queue"
  namespace     = "default"
  cluster_queue = mlplatform_cluster_queue.this.name
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
