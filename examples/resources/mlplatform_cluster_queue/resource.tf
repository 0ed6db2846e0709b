# The research team's queue: 15 A100 80GB GPUs with the CPU and memory of their nodes, borrowing
# up to 5 more GPUs from the other queues of the "training" cohort when they are idle.
resource "mlplatform_cluster_queue" "research" {
  name   = "research"
  cohort = mlplatform_cohort.training.name

  # Unset admits no namespace at all; {} admits every namespace.
  namespace_selector = {
    match_labels = { "mlplatform.io/team" = "research" }
  }

  resource_group {
    covered_resources = ["nvidia.com/gpu", "cpu", "memory"]

    flavor {
      name = mlplatform_resource_flavor.a100_on_demand.name
      # One block per covered resource, in the order of covered_resources.
      resource {
        name            = "nvidia.com/gpu"
        nominal_quota   = "15"
        borrowing_limit = "5"
      }
      resource {
        name          = "cpu"
        nominal_quota = "180"
      }
      resource {
        name          = "memory"
        nominal_quota = "2160Gi"
      }
    }
  }

  # A higher-priority run may preempt lower-priority ones here, and reclaim GPUs lent to others.
  preemption = {
    within_cluster_queue  = "LowerPriority"
    reclaim_within_cohort = "Any"
  }

  labels = {
    team = "research"
  }

  # Create and update wait until Kueue reports the queue Active (false skips the wait).
  wait_for_active = true
  timeouts {
    create = "2m"
  }
}
