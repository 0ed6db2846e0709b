# On the manager cluster: the workers a ClusterQueue's workloads are dispatched to, most
# preferred first, through Kueue's multikueue admission check.
resource "mlplatform_multikueue_config" "workers" {
  name = "training-workers"
  clusters = [
    mlplatform_multikueue_cluster.worker_a.name,
    mlplatform_multikueue_cluster.worker_b.name,
  ]
}

resource "mlplatform_admission_check" "multikueue" {
  name            = "multikueue"
  controller_name = "kueue.x-k8s.io/multikueue"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "MultiKueueConfig"
    name      = mlplatform_multikueue_config.workers.name
  }
}

# The manager's ClusterQueue applies the check: what it admits runs on a worker. The workers hold
# the same namespaces, LocalQueues and ClusterQueue with their own quota.
resource "mlplatform_cluster_queue" "research_global" {
  name               = "research-global"
  namespace_selector = { match_labels = { "mlplatform.io/team" = "research" } }

  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = "default"
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "64" # what the workers have together
      }
    }
  }

  admission_checks_strategy = [{ name = mlplatform_admission_check.multikueue.name }]
}
