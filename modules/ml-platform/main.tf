# The whole GPU training platform of one cluster: GPU node pools on one node class, a Kueue
# flavor per pool and capacity type fed from what the pool supplies, a ClusterQueue per team in
# one cohort with quotas derived from whole GPUs, the teams (namespace, LocalQueues, access,
# billing labels), priority classes, training templates and their schedules, and the billing
# dashboard. The provider comes from the caller, so the same module lays the platform on any
# cluster (see examples/multi-cluster).

# --- GPU nodes (Karpenter) ---------------------------------------------------------------------

# A MultiKueue manager runs no GPU nodes: its runs go to the workers (multikueue.tf).
resource "mlplatform_node_class" "this" {
  count = local.manager ? 0 : 1

  name             = var.node_class.name
  role             = var.node_class.instance_profile == null ? coalesce(var.node_class.role, "KarpenterNodeRole-${var.cluster_name}") : null
  instance_profile = var.node_class.instance_profile

  ami_selector            = [{ alias = var.node_class.ami_alias }]
  subnet_selector         = [{ tags = { (var.node_class.discovery_tag) = var.cluster_name } }]
  security_group_selector = [{ tags = { (var.node_class.discovery_tag) = var.cluster_name } }]
  block_device = [{
    device_name = var.node_class.root_device_name
    root_volume = true
    volume_size = var.node_class.root_volume_size
    volume_type = var.node_class.root_volume_type
  }]

  capacity_reservation_selector = var.node_class.capacity_reservations
  instance_store_policy         = var.node_class.instance_store_policy
  node_config                   = var.node_class.node_config
  efa_instance_type             = var.node_class.efa_instance_type

  billing = length(var.node_class.billing) > 0 ? var.node_class.billing : null
  tags    = length(var.node_class.tags) > 0 ? var.node_class.tags : null
}

# The node class had no count before MultiKueue managers: existing states keep it.
moved {
  from = mlplatform_node_class.this
  to   = mlplatform_node_class.this[0]
}

resource "mlplatform_gpu_node_pool" "this" {
  for_each = local.manager ? {} : var.gpu_pools

  name       = coalesce(each.value.name, each.key)
  node_class = mlplatform_node_class.this[0].name
  gpu = {
    model          = each.value.model
    instance_types = each.value.instance_types
  }
  mig                      = each.value.mig
  time_slicing             = each.value.time_slicing_replicas == null ? null : { replicas = each.value.time_slicing_replicas }
  on_demand                = each.value.on_demand
  spot                     = each.value.spot
  reserved                 = each.value.reserved
  disruption               = each.value.disruption
  termination_grace_period = each.value.termination_grace_period
  efa                      = each.value.efa
  expire_after             = each.value.expire_after
  # A time-sliced pool's nodes pick their device plugin config (mlplatform_time_slicing_config.this).
  node_labels = each.value.time_slicing_replicas == null ? each.value.node_labels : merge(each.value.node_labels, {
    "nvidia.com/device-plugin.config" = local.device_plugin_label[each.key]
  })
  billing = each.value.billing
}

# --- Kueue: flavors, cohort, a ClusterQueue per team, priority classes ------------------------

resource "mlplatform_resource_flavor" "this" {
  for_each = local.flavors

  name        = each.key
  node_labels = local.supplies[each.value.pool][each.value.capacity_type].node_labels
  node_taints = local.supplies[each.value.pool][each.value.capacity_type].taints
  tolerations = local.supplies[each.value.pool][each.value.capacity_type].tolerations
}

# The cohort through which the teams borrow each other's idle quota. Its preconditions are the
# checks that concern all teams together.
resource "mlplatform_cohort" "this" {
  name = var.cohort_name

  lifecycle {
    precondition {
      condition     = local.manager || length(var.gpu_pools) > 0
      error_message = "gpu_pools: declare at least one pool (only a MultiKueue manager, with multikueue set, has none: its pools are its workers')."
    }
    precondition {
      condition     = !local.manager || (length(var.gpu_pools) == 0 && alltrue([for t in var.teams : length(t.gpus) == 0]))
      error_message = "multikueue: a manager runs no GPU nodes and its quotas are its workers' summed, so it takes no gpu_pools and no teams' gpus (set them on the workers' modules). Given: ${join(", ", concat([for p, _ in var.gpu_pools : "gpu_pools.${p}"], [for t, team in var.teams : "teams.${t}.gpus" if length(team.gpus) > 0]))}."
    }
    precondition {
      condition     = var.allow_overcommit || length(local.overcommit) == 0
      error_message = "The teams' quotas over-commit the GPU pools: ${join("; ", [for f, o in local.overcommit : "${o.pool} ${o.capacity_type}: ${join(" + ", [for t in keys(var.teams) : "${t} ${local.team_gpus[t][f].nominal}" if local.team_gpus[t][f].nominal > 0])} = ${o.quota_gpus} GPUs, but gpu_pools.${o.pool}.${replace(o.capacity_type, "-", "_")}.max_gpus is ${o.supply_gpus}"])}. Kueue would admit work that no node can run: lower the teams' gpus, raise max_gpus, or set allow_overcommit = true (the output overcommit then lists the excess)."
    }
    precondition {
      condition     = !(var.fair_sharing && var.preemption.borrow_within_cohort != "Never")
      error_message = "preemption.borrow_within_cohort = ${var.preemption.borrow_within_cohort} has no effect under fair sharing (Kueue ignores it): set it to Never, or fair_sharing = false."
    }
  }
}

resource "mlplatform_cluster_queue" "team" {
  for_each = var.teams

  name   = each.key
  cohort = mlplatform_cohort.this.name
  # Only the team's own namespace may submit (the team labels it mlplatform.io/team).
  namespace_selector  = { match_labels = { "mlplatform.io/team" = each.key } }
  fair_sharing_weight = var.fair_sharing ? each.value.fair_sharing_weight : null
  # On a MultiKueue manager, what the queue admits is dispatched to a worker.
  admission_checks_strategy = local.manager ? [{ name = mlplatform_admission_check.multikueue[0].name }] : null

  resource_group {
    covered_resources = local.covered
    dynamic "flavor" {
      for_each = local.flavor_order
      content {
        name = mlplatform_resource_flavor.this[flavor.value].name
        # One block per covered resource, in the order of covered_resources.
        dynamic "resource" {
          for_each = local.covered
          content {
            name            = resource.value
            nominal_quota   = local.quotas[each.key][flavor.value][resource.value].nominal_quota
            borrowing_limit = local.quotas[each.key][flavor.value][resource.value].borrowing_limit
            lending_limit   = local.quotas[each.key][flavor.value][resource.value].lending_limit
          }
        }
      }
    }
  }

  preemption = {
    within_cluster_queue  = var.preemption.within_cluster_queue
    reclaim_within_cohort = var.preemption.reclaim_within_cohort
    borrow_within_cohort = var.preemption.borrow_within_cohort == "Never" ? null : {
      policy                 = var.preemption.borrow_within_cohort
      max_priority_threshold = var.preemption.borrow_max_priority_threshold
    }
  }

  labels = { "mlplatform.io/team" = each.key }

  lifecycle {
    precondition {
      condition     = length(local.misplaced[each.key]) == 0
      error_message = "teams.${each.key}: ${join("; ", local.misplaced[each.key])}."
    }
  }
}

resource "mlplatform_workload_priority_class" "this" {
  for_each = var.priorities

  name        = each.key
  value       = each.value.value
  description = each.value.description
}

# --- Teams: namespace, LocalQueues, access, project-label policy -------------------------------

resource "mlplatform_team" "this" {
  for_each = var.teams

  name                  = each.key
  namespace             = each.value.namespace
  cost_centre           = each.value.cost_centre
  local_queues          = { for q in each.value.local_queues : q => mlplatform_cluster_queue.team[each.key].name }
  member_groups         = each.value.member_groups
  member_users          = each.value.member_users
  project_label         = each.value.project_label
  require_project_label = each.value.require_project_label
  force_destroy         = each.value.force_destroy
  labels                = each.value.labels
}

# --- Training templates (Argo WorkflowTemplates queued by Kueue) and their schedules ----------

resource "mlplatform_training_job_template" "this" {
  for_each = local.templates

  namespace       = mlplatform_team.this[each.value.team].namespace
  name            = each.value.name
  queue           = coalesce(each.value.queue, var.teams[each.value.team].local_queues[0])
  priority_class  = each.value.priority == null ? null : try(mlplatform_workload_priority_class.this[each.value.priority].name, each.value.priority)
  service_account = mlplatform_team.this[each.value.team].workflow_service_account
  billing = merge(mlplatform_team.this[each.value.team].pod_labels,
  each.value.project == null ? {} : { (var.teams[each.value.team].project_label) = each.value.project })

  image              = each.value.image
  training_script    = each.value.training_script
  command            = each.value.command
  args               = each.value.args
  source             = each.value.source
  dataset_version    = each.value.dataset_version
  hyperparameters    = each.value.hyperparameters
  env                = each.value.env
  hardware           = each.value.hardware
  capacity           = each.value.capacity
  checkpoint         = each.value.checkpoint
  retry              = each.value.retry
  tracking           = each.value.tracking
  volumes            = each.value.volumes
  active_deadline    = each.value.active_deadline
  ttl_after_finished = each.value.ttl_after_finished
  pod_gc             = each.value.pod_gc

  lifecycle {
    precondition {
      condition     = each.value.priority == null || contains(keys(var.priorities), coalesce(each.value.priority, "-"))
      error_message = "teams.${each.value.team}.training_templates.${each.value.name}.priority = ${jsonencode(each.value.priority)} is not a key of priorities (${join(", ", keys(var.priorities))}): declare it there, or drop the priority."
    }
    precondition {
      condition     = each.value.queue == null || contains(var.teams[each.value.team].local_queues, coalesce(each.value.queue, "-"))
      error_message = "teams.${each.value.team}.training_templates.${each.value.name}.queue = ${jsonencode(each.value.queue)} is not one of the team's local_queues (${join(", ", var.teams[each.value.team].local_queues)})."
    }
  }
}

resource "mlplatform_training_schedule" "this" {
  for_each = local.schedules

  namespace          = mlplatform_training_job_template.this[each.value.template].namespace
  name               = each.value.name
  template           = mlplatform_training_job_template.this[each.value.template].name
  schedules          = each.value.cron
  timezone           = each.value.timezone
  parameters         = each.value.parameters
  concurrency_policy = each.value.concurrency_policy
  suspend            = each.value.suspend
}

# --- Billing: recording rules and alerts, and the Grafana dashboard ----------------------------
# Both go after the teams, so that billing.namespace may be one of theirs.

resource "mlplatform_gpu_billing_rules" "this" {
  count = var.billing.rules == null ? 0 : 1

  namespace = var.billing.namespace
  name      = var.billing.rules.name
  # Each pool's Karpenter name (its nodes' karpenter.sh/nodepool is "<name>-<capacity type>") with
  # its supplies: the prices and MIG profiles the bill uses are the pools' own.
  pools         = { for p, s in local.supplies : local.pool_names[p] => s }
  project_label = local.project_label
  labels        = var.billing.rules.labels
  alert_labels  = var.billing.rules.alert_labels

  evaluation_interval          = var.billing.rules.evaluation_interval
  admission_wait_slo           = var.billing.rules.admission_wait_slo
  admission_wait_slo_per_queue = var.billing.rules.admission_wait_slo_per_team == null ? null : { for t, slo in var.billing.rules.admission_wait_slo_per_team : mlplatform_cluster_queue.team[t].name => slo if contains(keys(var.teams), t) }
  gpu_idle_alert_after         = var.billing.rules.gpu_idle_alert_after
  gpu_memory_alert_ratio       = var.billing.rules.gpu_memory_alert_ratio
  pending_alert_after          = var.billing.rules.pending_alert_after
  queue_inactive_alert_after   = var.billing.rules.queue_inactive_alert_after
  dcgm_node_label              = var.billing.rules.dcgm_node_label
  dcgm_namespace_label         = var.billing.rules.dcgm_namespace_label
  dcgm_pod_label               = var.billing.rules.dcgm_pod_label

  depends_on = [mlplatform_team.this]

  lifecycle {
    precondition {
      condition     = length(distinct([for t in var.teams : t.project_label])) <= 1
      error_message = "billing.rules reads one project label for all pods, but the teams use ${join(", ", distinct([for t in var.teams : t.project_label]))}: give every team the same project_label."
    }
    precondition {
      condition     = alltrue([for t in keys(coalesce(var.billing.rules.admission_wait_slo_per_team, {})) : contains(keys(var.teams), t)])
      error_message = "billing.rules.admission_wait_slo_per_team names teams that do not exist: ${join(", ", [for t in keys(coalesce(var.billing.rules.admission_wait_slo_per_team, {})) : t if !contains(keys(var.teams), t)])} (teams: ${join(", ", keys(var.teams))})."
    }
  }
}

resource "mlplatform_gpu_dashboard" "this" {
  count = var.billing.dashboard == null ? 0 : 1

  namespace  = var.billing.namespace
  name       = var.billing.dashboard.name
  title      = var.billing.dashboard.title
  folder     = var.billing.dashboard.folder
  datasource = var.billing.dashboard.datasource

  depends_on = [mlplatform_team.this]
}
