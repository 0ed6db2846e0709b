# A day of two teams on 16 A100-80GB GPUs, 8 each, lending to each other: whole-GPU training runs
# and small experiments on MIG slices. The ml-platform module writes all but the profiles for you.
data "mlplatform_capacity_simulation" "day" {
  horizon = "24h"
  seed    = 7

  flavors = [
    {
      name           = "a100-on-demand"
      node_labels    = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand" }
      price_per_hour = { "nvidia.com/gpu" = 5.12 }
    },
    {
      name           = "a100-mig-on-demand"
      node_labels    = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand" }
      price_per_hour = { "nvidia.com/mig-1g.10gb" = 0.73 }
      units_per_gpu  = { "nvidia.com/mig-1g.10gb" = 7 }
    },
  ]

  cluster_queues = [for team in ["research", "product"] : {
    name       = team
    cohort     = "gpus"
    preemption = { reclaim_within_cohort = "Any", within_cluster_queue = "LowerPriority" }
    flavors = [
      { name = "a100-on-demand", resources = { "nvidia.com/gpu" = { nominal_quota = "6" } } },
      { name = "a100-mig-on-demand", resources = { "nvidia.com/mig-1g.10gb" = { nominal_quota = "14" } } },
    ]
  }]
  local_queues     = [for team in ["research", "product"] : { namespace = team, name = "training", cluster_queue = team }]
  priority_classes = { low = 100, high = 1000 }

  profiles = [for team in ["research", "product"] : {
    team         = team
    local_queue  = "training"
    jobs_per_day = 30
    # More jobs in working hours (UTC), none at night.
    daily_shape = [0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 2, 3, 3, 3, 2, 1, 1, 0, 0, 0, 0, 0]
    shapes = [
      { weight = 2, gpu_type = "a100-80gb", gpus = 4 },
      { weight = 3, gpu_type = "a100-80gb", mig_profile = "1g.10gb" },
    ]
    duration   = { distribution = "lognormal", mean = "2h", p95 = "6h", max = "12h" }
    priorities = { low = 3, high = 1 }
    checkpoint = true
    node_start = "4m"
  }]
}

# Warn when the queues would keep research waiting more than an hour at the 95th percentile (a
# postcondition would refuse the plan). With 6 GPUs a team this day warns: p95 is about 5 hours.
check "research_waits" {
  assert {
    condition     = data.mlplatform_capacity_simulation.day.teams["research"].wait_p95_minutes <= 60
    error_message = "research's p95 wait would be ${data.mlplatform_capacity_simulation.day.teams["research"].wait_p95_minutes} minutes."
  }
}

output "day" {
  value = { for t, r in data.mlplatform_capacity_simulation.day.teams : t => {
    wait_p95_minutes = r.wait_p95_minutes
    gpu_hours        = r.gpu_hours
    preemptions      = r.preemptions
    cost             = r.cost
  } }
}
