# kubernetes-sigs/kueue@v0.17.0 (4d5f7ffc), site/static/examples/tas/sample-gpu-queues.yaml:
# topology-aware scheduling of GPU jobs.
resource "mlplatform_topology" "default" {
  name = "default"
  levels = [
    "cloud.provider.com/topology-block",
    "cloud.provider.com/topology-rack",
    "kubernetes.io/hostname",
  ]
}

resource "mlplatform_resource_flavor" "tas" {
  name          = "tas-flavor"
  node_labels   = { "cloud.provider.com/node-group" = "tas-group" }
  topology_name = mlplatform_topology.default.name
  tolerations   = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }]
}

resource "mlplatform_cluster_queue" "tas" {
  name               = "tas-cluster-queue"
  namespace_selector = {}
  resource_group {
    covered_resources = ["cpu", "memory", "nvidia.com/gpu"]
    flavor {
      name = mlplatform_resource_flavor.tas.name
      resource {
        name          = "cpu"
        nominal_quota = "100"
      }
      resource {
        name          = "memory"
        nominal_quota = "100Gi"
      }
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "16"
      }
    }
  }
}

resource "mlplatform_local_queue" "tas" {
  name          = "tas-user-queue"
  namespace     = "default"
  cluster_queue = mlplatform_cluster_queue.tas.name
}
