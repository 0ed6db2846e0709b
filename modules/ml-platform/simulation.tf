# The teams' day of jobs through the queues this module declares, decided by Kueue's scheduler at
# plan (data.mlplatform_capacity_simulation): the flavors, quotas, cohort, priorities and
# preemption are the ones written above, so nothing is declared twice.

locals {
  simulated = { for t, team in var.teams : t => team if team.simulation != null }
  # The day as declared and, to compare, the same day in whole GPUs (whole_gpus).
  variants = length(local.simulated) == 0 ? {} : merge({ as_declared = false }, var.simulation.compare_whole_gpus ? { whole_gpus = true } : {})
}

data "mlplatform_capacity_simulation" "this" {
  for_each = local.variants

  whole_gpus   = each.value
  horizon      = var.simulation.horizon
  interval     = var.simulation.interval
  seed         = var.simulation.seed
  max_jobs     = var.simulation.max_jobs
  fair_sharing = var.fair_sharing

  flavors = [for f in local.flavor_order : {
    name           = f
    node_labels    = local.supplies[local.flavors[f].pool][local.flavors[f].capacity_type].node_labels
    price_per_hour = local.supplies[local.flavors[f].pool][local.flavors[f].capacity_type].hourly_price
    units_per_gpu  = local.units_per_gpu[local.flavors[f].pool]
  }]

  cluster_queues = [for t, _ in var.teams : {
    name   = t
    cohort = var.cohort_name
    preemption = {
      within_cluster_queue   = var.preemption.within_cluster_queue
      reclaim_within_cohort  = var.preemption.reclaim_within_cohort
      borrow_within_cohort   = var.preemption.borrow_within_cohort
      max_priority_threshold = var.preemption.borrow_max_priority_threshold
    }
    flavors = [for f in local.flavor_order : {
      name      = f
      resources = local.quotas[t][f]
    }]
  }]

  local_queues = flatten([for t, team in var.teams : [
    for q in team.local_queues : { namespace = coalesce(team.namespace, t), name = q, cluster_queue = t }
  ]])

  priority_classes = { for k, p in var.priorities : k => p.value }

  profiles = [for t, team in local.simulated : merge(
    { for k, v in team.simulation : k => v if k != "local_queue" },
    { team = t, namespace = coalesce(team.namespace, t), local_queue = coalesce(team.simulation.local_queue, team.local_queues[0]) },
  )]
}
