# The research team's queue: 105 1g.10gb MIG slices (15 A100 80GB GPUs on on-demand nodes sliced
# all-1g.10gb) with the CPU and memory of their nodes, borrowing up to 35 more slices from the other
# queues of the "training" cohort when they are idle. Kueue admits a pod only when the queue covers
# every resource it requests: hence CPU and memory beside the slices.
resource "mlplatform_cluster_queue" "research" {
  name   = "research"
  cohort = mlplatform_cohort.training.name

  # Unset admits no namespace at all; {} admits every namespace.
  namespace_selector = {
    match_labels = { "mlplatform.io/team" = "research" }
  }

  resource_group {
    covered_resources = ["nvidia.com/mig-1g.10gb", "cpu", "memory"]

    flavor {
      name = mlplatform_resource_flavor.a100_on_demand.name
      # One block per covered resource, in the order of covered_resources.
      resource {
        name            = "nvidia.com/mig-1g.10gb"
        nominal_quota   = "105"
        borrowing_limit = "35"
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

  # A higher-priority run may preempt lower-priority ones here, and reclaim slices lent to others.
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
