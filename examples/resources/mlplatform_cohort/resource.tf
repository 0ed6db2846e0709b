# The cohort the team ClusterQueues borrow each other's idle GPUs in.
resource "mlplatform_cohort" "training" {
  name = "training"
}

# A cohort under the organisation's root that adds a shared pool of 8 GPUs on top of its queues'
# quotas, of which it lends at most 4 to the rest of the organisation.
resource "mlplatform_cohort" "vision" {
  name   = "vision"
  parent = mlplatform_cohort.training.name

  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = "a100-80gb-spot"
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "8"
        lending_limit = "4"
      }
    }
  }
}
