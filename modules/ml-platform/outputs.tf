output "queues" {
  description = "Per team: its ClusterQueue, whether Kueue reports it Active, its namespace, its LocalQueues (`<namespace>/<name>`, where engineers submit) and the billing labels its pods carry."
  value = {
    for t, q in mlplatform_cluster_queue.team : t => {
      cluster_queue = q.name
      active        = q.active
      namespace     = mlplatform_team.this[t].namespace
      local_queues  = [for lq in mlplatform_team.this[t].local_queue_names : "${mlplatform_team.this[t].namespace}/${lq}"]
      pod_labels    = mlplatform_team.this[t].pod_labels
    }
  }
}

output "quotas" {
  description = "Per team and flavor, the quota in whole GPUs as given (`gpus`, `borrowing_limit`, `lending_limit`) and as written on the ClusterQueue per resource (`nominal_quota` and limits as Kubernetes quantities)."
  value = {
    for t, by_flavor in local.team_gpus : t => {
      for f, g in by_flavor : f => {
        gpus            = g.nominal
        borrowing_limit = g.borrow
        lending_limit   = g.lend
        resources       = local.quotas[t][f]
      }
    }
  }
}

output "flavors" {
  description = "The Kueue ResourceFlavors, in the order the queues try them: their pool, capacity type, most GPUs, and the node labels they select."
  value = [
    for f in local.flavor_order : {
      name          = mlplatform_resource_flavor.this[f].name
      pool          = local.flavors[f].pool
      capacity_type = local.flavors[f].capacity_type
      max_gpus      = local.flavors[f].max_gpus
      node_labels   = mlplatform_resource_flavor.this[f].node_labels
    }
  ]
}

output "supplies" {
  description = "What each pool can supply at most per capacity type (`reserved`, `on-demand`, `spot`): `resources`, the most of each GPU resource, `per_gpu`, what one GPU exposes, `cpu_milli_per_gpu` and `memory_mib_per_gpu`, what one GPU's share of a node offers pods, and `hourly_price`, USD per hour of one unit of each resource (null without a price)."
  value = {
    for p, supplies in local.supplies : p => {
      for type, s in supplies : type => {
        resources          = s.resources
        per_gpu            = s.per_gpu
        cpu_milli_per_gpu  = s.cpu_milli_per_gpu
        memory_mib_per_gpu = s.memory_mib_per_gpu
        hourly_price       = s.hourly_price
      }
    }
  }
}

output "hourly_cost_ceiling" {
  description = "The most the GPUs can cost per hour (USD, from the pools' `supplies` prices), known at plan: per team, its quota (`quota`) and its quota plus all it may borrow (`with_borrowing`); per pool, all its GPUs. Null where a flavor involved has no price (listed in `unpriced_flavors`: spot needs `price_per_hour` or `discount`)."
  value = {
    teams            = local.team_cost
    pools            = local.pool_cost
    unpriced_flavors = local.unpriced
  }
}

output "overcommit" {
  description = "Per flavor whose teams' quotas exceed what its pool supplies (only possible with `allow_overcommit`): the pool, capacity type, GPUs promised and GPUs the pool can run. Empty when nothing is over-committed."
  value       = local.overcommit
}

output "submit_commands" {
  description = "Per training template (`<namespace>/<name>`), the command an ML engineer runs to submit it with its default parameters."
  value       = { for k, t in mlplatform_training_job_template.this : "${t.namespace}/${t.name}" => t.submit_command }
}

output "submit_manifests" {
  description = "Per training template (`<namespace>/<name>`), the Workflow (YAML) that submits it with its default parameters, for `kubectl create -f` by engineers without the argo CLI."
  value       = { for k, t in mlplatform_training_job_template.this : "${t.namespace}/${t.name}" => t.submit_manifest }
}

output "kueue_configuration" {
  description = "Kueue's configuration (config.kueue.x-k8s.io/v1beta2 `Configuration`, YAML) that this platform needs: the `pod` integration, `managedJobsNamespaceSelector` selecting the teams' namespaces, the run's name copied onto its Workload (`labelKeysToCopy`), ClusterQueue resource metrics with the team and cost-centre labels for the bill (custom labels are alpha in Kueue v0.19: the feature gate `CustomMetricLabels` is on in it), `waitForPodsReady` from `kueue`, and `fairSharing` when `fair_sharing` is on. Give it to the Kueue release (Helm value `managerConfig.controllerManagerConfigYaml`); Kueue defaults the rest. When Kueue manages other namespaces or frameworks too, merge yours into it."
  value       = yamlencode(local.kueue_configuration)
}

output "karpenter_values" {
  description = "Helm values of the Karpenter release that this platform needs: `settings.featureGates.nodeOverlay` is true when a pool splits its GPUs into MIG slices under the mixed strategy, since Karpenter learns the slices a node offers from the pool's NodeOverlays only with that gate (alpha in v1.15, off by default). Pass it as `values = [yamlencode(module.<name>.karpenter_values)]`."
  value       = local.karpenter_values
}

output "gpu_operator_values" {
  description = "Helm values of the NVIDIA GPU Operator release that this platform needs: `mig.strategy` (the MIG pools' strategy; the chart's default is `single`), `migManager.config` (NVIDIA's `default-mig-parted-config`, or the module's `mlplatform-mig-parted-config` when a pool's MIG layout is not among NVIDIA's `all-*` configs: it then lists every layout the pools use), `devicePlugin.config` when a pool time-slices (the module's `mlplatform-device-plugin-config`: a `time-slicing-<replicas>` config that the pool's nodes select with the label `nvidia.com/device-plugin.config`, and `whole-gpus` for every other node), and `dcgmExporter.enabled`, whose metrics the bill reads. The module writes its configs into `gpu_operator.namespace`. Pass it as `values = [yamlencode(module.<name>.gpu_operator_values)]`."
  value       = local.gpu_operator_values
}

output "cohort" {
  description = "Name of the Kueue Cohort the teams' queues share."
  value       = mlplatform_cohort.this.name
}

output "priority_classes" {
  description = "The WorkloadPriorityClasses: name => value."
  value       = { for k, p in mlplatform_workload_priority_class.this : k => p.value }
}

output "billing" {
  description = "The billing objects written: the PrometheusRule of `billing.rules` and the dashboard ConfigMap of `billing.dashboard` (each `<namespace>/<name>`, or null when off)."
  value = {
    rules     = one([for r in mlplatform_gpu_billing_rules.this : r.id])
    dashboard = one([for d in mlplatform_gpu_dashboard.this : d.id])
  }
}

output "simulation" {
  description = "The teams' `simulation` day through the declared queues (`data.mlplatform_capacity_simulation`): `teams` (waits, preemptions, GPU-hours used, borrowed, lent and lost, cost), `flavor_usage`, `timeline` and `caveats`; null when no team has a profile. It is known at plan once the GPU pools exist unchanged: the simulation reads the pools' supplies, and Terraform reads a data source that refers to a resource with changes pending only at apply."
  value       = local.simulation["as_declared"]
}

output "simulation_whole_gpus" {
  description = "With `simulation.compare_whole_gpus`, the same day with every MIG quota and job in whole GPUs (as `simulation`); null otherwise."
  value       = local.simulation["whole_gpus"]
}

locals {
  simulation = { for v in ["as_declared", "whole_gpus"] : v => try({
    jobs         = data.mlplatform_capacity_simulation.this[v].jobs
    teams        = data.mlplatform_capacity_simulation.this[v].teams
    flavor_usage = data.mlplatform_capacity_simulation.this[v].flavor_usage
    timeline     = data.mlplatform_capacity_simulation.this[v].timeline
    caveats = concat(data.mlplatform_capacity_simulation.this[v].caveats, local.manager ? [
      "MultiKueue manager: the workers are simulated as one cluster with their pools and quotas summed. A run that fits the sum but no single worker waits in reality, and a lost worker's runs starting again elsewhere are not modelled: simulate each worker too.",
    ] : [])
  }, null) }
}

output "preflight" {
  description = "What the cluster runs otherwise than this platform needs (`data.mlplatform_preflight`): `checked`, whether the cluster could be read, and `findings`, each with `component`, `setting`, `wanted`, `found` and `fix` (the Helm value to change); empty when all match. Null with `preflight.enabled = false`."
  value = var.preflight.enabled ? {
    checked  = data.mlplatform_preflight.this[0].checked
    findings = data.mlplatform_preflight.this[0].findings
  } : null
}

output "multikueue_worker" {
  description = "What a MultiKueue manager needs to know of this cluster as a worker: pass it as `multikueue.workers.<name>.platform` of the manager's module. `pools` (Karpenter name, model, most GPUs per capacity type), `supplies` (as the output `supplies`, with node labels), `flavors` (each flavor's node labels) and `teams` (namespace, LocalQueues and GPUs per flavor). Null on a manager."
  value = local.manager ? null : {
    pools = { for p, pool in var.gpu_pools : p => {
      name     = local.pool_names[p]
      model    = pool.model
      max_gpus = local.pool_gpus[p]
    } }
    supplies = local.supplies
    flavors  = { for f in local.flavor_order : f => local.supplies[local.flavors[f].pool][local.flavors[f].capacity_type].node_labels }
    teams = { for t, team in var.teams : t => {
      namespace    = coalesce(team.namespace, t)
      local_queues = team.local_queues
      gpus         = local.team_gpus[t]
    } }
  }
}

output "multikueue" {
  description = "On a MultiKueue manager: the AdmissionCheck every team's ClusterQueue applies, the MultiKueueConfig, and the workers' MultiKueueClusters (`kubectl get multikueueclusters` shows whether Kueue reaches each). Null otherwise."
  value = local.manager ? {
    admission_check = mlplatform_admission_check.multikueue[0].name
    config          = mlplatform_multikueue_config.this[0].name
    workers         = [for c in mlplatform_multikueue_cluster.worker : c.name]
  } : null
}
