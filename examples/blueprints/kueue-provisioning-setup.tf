# kubernetes-sigs/kueue@v0.19.2 (8eab6877), site/static/examples/provisioning/provisioning-setup.yaml:
# a queue whose workloads Cluster Autoscaler checks capacity for before admission.
resource "mlplatform_resource_flavor" "default" {
  name = "default-flavor"
}

resource "mlplatform_cluster_queue" "this" {
  name               = "cluster-queue"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu", "memory", "nvidia.com/gpu"]
    flavor {
      name = mlplatform_resource_flavor.default.name
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
  }
  admission_checks_strategy = [{
    name       = mlplatform_admission_check.sample_prov.name
    on_flavors = [mlplatform_resource_flavor.default.name]
  }]
}

resource "mlplatform_local_queue" "this" {
  name          = "user-queue"
  namespace     = "default"
  cluster_queue = mlplatform_cluster_queue.this.name
}

resource "mlplatform_admission_check" "sample_prov" {
  name            = "sample-prov"
  controller_name = "kueue.x-k8s.io/provisioning-request"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "ProvisioningRequestConfig"
    name      = mlplatform_provisioning_request_config.prov_test.name
  }
}

resource "mlplatform_provisioning_request_config" "prov_test" {
  name                    = "prov-test-config"
  provisioning_class_name = "check-capacity.autoscaling.x-k8s.io"
  managed_resources       = ["nvidia.com/gpu"]
  retry_strategy = {
    backoff_limit_count  = 2
    backoff_base_seconds = 0
    backoff_max_seconds  = 1800
  }
}
