# Inputs. Everything a team or pool needs is in one object per entry; cross-input checks (a team's
# quota against the pools, a template's priority class) are preconditions in main.tf, since a
# variable's validation may only look at the variable itself before Terraform 1.9.

variable "cluster_name" {
  type        = string
  description = "Name of the EKS cluster. The node class finds subnets and security groups by the tag `node_class.discovery_tag = <cluster_name>`, and its IAM role defaults to `KarpenterNodeRole-<cluster_name>` (Karpenter's getting-started convention)."

  validation {
    condition     = can(regex("^[a-zA-Z][a-zA-Z0-9-_]{0,99}$", var.cluster_name))
    error_message = "cluster_name must be an EKS cluster name: 1 to 100 letters, digits, '-' and '_', starting with a letter."
  }
}

variable "node_class" {
  type = object({
    name             = optional(string, "gpu")
    role             = optional(string)
    instance_profile = optional(string)
    ami_alias        = optional(string, "al2023@latest")
    discovery_tag    = optional(string, "karpenter.sh/discovery")
    root_volume_size = optional(string, "500Gi")
    root_volume_type = optional(string, "gp3")
    root_device_name = optional(string, "/dev/xvda")
    billing          = optional(map(string), {})
    tags             = optional(map(string), {})
    capacity_reservations = optional(list(object({
      id                      = optional(string)
      tags                    = optional(map(string))
      owner_id                = optional(string)
      instance_match_criteria = optional(string)
    })))
    instance_store_policy = optional(string)
    efa_instance_type     = optional(string)
    node_config = optional(object({
      topology_manager_policy = optional(string)
      topology_manager_scope  = optional(string)
      cpu_manager_policy      = optional(string)
    }))
  })
  default     = {}
  description = <<-EOT
    The EC2NodeClass every GPU pool launches its nodes with (`mlplatform_node_class`):
    `name` (default `gpu`); `role`, the nodes' IAM role (default `KarpenterNodeRole-<cluster_name>`),
    or `instance_profile` instead; `ami_alias` (default `al2023@latest`, the EKS-optimised AMI with
    NVIDIA drivers on GPU instances); `discovery_tag`, the tag key whose value `cluster_name`
    selects subnets and security groups (default `karpenter.sh/discovery`); the root volume
    (`root_volume_size`, default `500Gi` for large training images, `root_volume_type` `gp3`,
    `root_device_name` `/dev/xvda` as on AL2023); `billing` tags (team, project, cost centre) and
    other EC2 `tags`; `capacity_reservations`, selector terms of the capacity reservations and
    Capacity Blocks that pools' `reserved` capacity launches into; `instance_store_policy`
    (`RAID0`: the local NVMe disks hold images and ephemeral storage); `node_config`, the kubelet's
    `topology_manager_policy` (e.g. `single-numa-node`), `topology_manager_scope` and
    `cpu_manager_policy` (`static`), written as an AL2023 nodeadm NodeConfig (needs an `al2023@` alias);
    `efa_instance_type`, the instance type whose network cards get AWS's EFA layout (pools then set `efa`).
  EOT

  validation {
    condition     = !(var.node_class.role != null && var.node_class.instance_profile != null)
    error_message = "node_class: set role or instance_profile, not both (unset, role defaults to KarpenterNodeRole-<cluster_name>)."
  }
}

variable "gpu_pools" {
  type = map(object({
    name           = optional(string)
    model          = string
    instance_types = optional(list(string))
    mig = optional(object({
      config   = optional(string)
      profiles = optional(map(number))
      strategy = optional(string)
    }))
    time_slicing_replicas = optional(number)
    on_demand = optional(object({
      max_gpus       = number
      price_per_hour = optional(number)
      weight         = optional(number)
    }))
    spot = optional(object({
      max_gpus       = number
      price_per_hour = optional(number)
      discount       = optional(number)
      weight         = optional(number)
    }))
    reserved = optional(object({
      max_gpus       = number
      price_per_hour = optional(number)
      weight         = optional(number)
    }))
    termination_grace_period = optional(string)
    efa                      = optional(bool)
    disruption = optional(object({
      consolidation_policy = optional(string, "WhenEmpty")
      consolidate_after    = optional(string, "10m")
      budgets = optional(list(object({
        nodes    = string
        schedule = optional(string)
        duration = optional(string)
      })))
    }), {})
    expire_after = optional(string)
    node_labels  = optional(map(string))
    billing      = optional(map(string))
  }))
  default     = {}
  description = <<-EOT
    The GPU node pools (`mlplatform_gpu_node_pool`, Karpenter NodePools), keyed by a short name
    that teams' quotas refer to. Each pool's capacity types become Kueue ResourceFlavors named
    `<key>-reserved`, `<key>-on-demand` and `<key>-spot`, tried by every queue in the order of the
    keys (sorted), reserved before on-demand before spot.
    - `name`: base name of the pool's Karpenter objects (`<name>-on-demand`, `<name>-spot`,
      `<name>-reserved`); defaults to the key.
    - `model` (e.g. `a100-80gb`, `h100`) and `instance_types` (default: every EC2 type of the model).
    - `mig` (`config` such as `all-1g.10gb`, or `profiles`; `strategy` `mixed` or `single`) or
      `time_slicing_replicas`: how a GPU is shared. A team's quota stays in whole GPUs; the module
      turns it into the MIG instances or replicas one GPU gives.
    - `on_demand`, `spot` and `reserved` (capacity reservations and Capacity Blocks for ML that
      `node_class.capacity_reservation_selector` selects): `max_gpus` (whole GPUs, the NodePool's
      limit), prices (`price_per_hour` per instance, or spot's `discount` off on-demand; reserved
      defaults to the on-demand price) and `weight`. At least one of them.
    - `termination_grace_period`: how long a drained node waits for its runs, e.g. `24h`.
    - `efa`: the nodes carry EFA interfaces (`node_class.efa_instance_type`); the pool's supplies
      then count `vpc.amazonaws.com/efa`.
    - `disruption`: defaults to `WhenEmpty` after `10m`, so Karpenter never moves running training.
    - `node_labels`, `billing` (node labels and EC2 tags), `expire_after`.
    At least one pool, except on a MultiKueue manager (`multikueue`), which takes none: its pools
    are its workers'.
  EOT

  validation {
    condition     = length(var.gpu_pools) <= 32
    error_message = "gpu_pools: declare at most 32 pools (Kueue allows 64 flavors in a queue's resource group, two per pool)."
  }
  validation {
    condition     = alltrue([for k, _ in var.gpu_pools : can(regex("^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$", k))])
    error_message = "gpu_pools: keys name Kueue flavors (<key>-on-demand): use 1 to 42 lower-case letters, digits and '-', starting and ending with a letter or digit. Wrong: ${join(", ", [for k, _ in var.gpu_pools : k if !can(regex("^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$", k))])}."
  }
  validation {
    condition     = alltrue([for p in var.gpu_pools : p.on_demand != null || p.spot != null || p.reserved != null])
    error_message = "gpu_pools: each pool needs on_demand, spot or reserved (any of them) with max_gpus. Missing in: ${join(", ", [for k, p in var.gpu_pools : k if p.on_demand == null && p.spot == null && p.reserved == null])}."
  }
  validation {
    condition = alltrue(flatten([for p in var.gpu_pools : [
      for c in [p.on_demand, p.spot, p.reserved] : c == null ? true : (c.max_gpus >= 1 && floor(c.max_gpus) == c.max_gpus)
    ]]))
    error_message = "gpu_pools: max_gpus is a whole number of GPUs, at least 1 (leave a capacity type out to run none). Wrong in: ${join(", ", [for k, p in var.gpu_pools : k if anytrue([for c in [p.on_demand, p.spot, p.reserved] : c == null ? false : (c.max_gpus < 1 || floor(c.max_gpus) != c.max_gpus)])])}."
  }
  validation {
    condition     = alltrue([for p in var.gpu_pools : !(p.mig != null && p.time_slicing_replicas != null)])
    error_message = "gpu_pools: a pool shares its GPUs by mig or by time_slicing_replicas, not both. Both in: ${join(", ", [for k, p in var.gpu_pools : k if p.mig != null && p.time_slicing_replicas != null])}."
  }
  validation {
    condition     = length(distinct([for p in var.gpu_pools : coalesce(p.mig.strategy, "mixed") if p.mig != null])) <= 1
    error_message = "gpu_pools: the GPU Operator's mig.strategy is one for the whole cluster, so every MIG pool needs the same mig.strategy. Given: ${join(", ", [for k, p in var.gpu_pools : "${k} ${coalesce(p.mig.strategy, "mixed")}" if p.mig != null])}."
  }
}

variable "teams" {
  type = map(object({
    namespace             = optional(string)
    cost_centre           = optional(string)
    member_groups         = optional(set(string))
    member_users          = optional(set(string))
    local_queues          = optional(list(string), ["training"])
    project_label         = optional(string, "mlplatform.io/project")
    require_project_label = optional(bool)
    force_destroy         = optional(bool)
    labels                = optional(map(string))
    fair_sharing_weight   = optional(string)
    gpus = optional(map(object({
      on_demand       = optional(number, 0)
      spot            = optional(number, 0)
      reserved        = optional(number, 0)
      borrowing_limit = optional(number)
      lending_limit   = optional(number)
    })), {})
    simulation = optional(object({
      local_queue  = optional(string)
      jobs_per_day = optional(number)
      daily_shape  = optional(list(number))
      arrivals     = optional(list(string))
      shapes = list(object({
        weight        = optional(number)
        gpu_type      = optional(string)
        mig_profile   = optional(string)
        gpus          = optional(number)
        pods          = optional(number)
        cpu           = optional(string)
        memory        = optional(string)
        capacity_type = optional(string)
      }))
      duration = object({
        distribution = string
        mean         = optional(string)
        min          = optional(string)
        max          = optional(string)
        p95          = optional(string)
      })
      priorities                  = optional(map(number))
      checkpoint                  = optional(bool)
      node_start                  = optional(string)
      spot_interruptions_per_hour = optional(number)
    }))
    training_templates = optional(map(object({
      image           = string
      training_script = optional(string)
      command         = optional(list(string))
      args            = optional(list(string))
      source = optional(object({
        git_repo = string
        revision = optional(string)
        ssh_private_key_secret = optional(object({
          name = string
          key  = string
        }))
      }))
      dataset_version = optional(string)
      hyperparameters = optional(map(string))
      env             = optional(map(string))
      hardware = object({
        gpu_type    = optional(string)
        gpu_count   = optional(number)
        cpu_cores   = number
        memory_gb   = number
        shm_size_gb = optional(number)
      })
      capacity = optional(string)
      priority = optional(string)
      project  = optional(string)
      queue    = optional(string)
      checkpoint = optional(object({
        uri                      = string
        env_name                 = optional(string)
        termination_grace_period = optional(string)
      }))
      retry = optional(object({
        limit   = optional(number)
        backoff = optional(string)
      }))
      tracking = optional(object({
        uri        = string
        experiment = optional(string)
      }))
      volumes = optional(list(object({
        claim_name = string
        mount_path = string
      })))
      active_deadline    = optional(string)
      ttl_after_finished = optional(string)
      pod_gc             = optional(string)
      schedules = optional(map(object({
        cron               = list(string)
        timezone           = string
        parameters         = optional(map(string))
        concurrency_policy = optional(string)
        suspend            = optional(bool)
      })), {})
    })), {})
  }))
  description = <<-EOT
    The teams, keyed by name (their ClusterQueue's name and `mlplatform.io/team` billing label).
    Each gets a namespace (`namespace`, default the key), LocalQueues (`local_queues`, default
    `["training"]`) feeding its ClusterQueue, access for `member_groups` and `member_users`, its
    `cost_centre` on everything it runs, and an admission policy requiring `project_label` on
    every pod (`require_project_label`, default true).
    - `gpus`: per pool key, the team's quota in whole GPUs: `on_demand`, `spot` and `reserved`, and
      `borrowing_limit` (most GPUs it may borrow from the other teams, per capacity type; unset:
      no limit) and `lending_limit` (most of its idle GPUs the others may borrow; unset: all).
      The module turns GPUs into what one GPU of the pool gives (7 `nvidia.com/mig-1g.10gb` under
      `all-1g.10gb`) plus the CPU and memory one GPU's share of a node offers pods (the pool's
      `supplies`: Karpenter's allocatable per GPU, the least among the pool's instance types;
      p4de.24xlarge: 11961m and 135339Mi). A team has every flavor in its queue, with quota 0
      where it has none, so it can still borrow there.
    - `fair_sharing_weight`: the team's weight when `fair_sharing` is on (Kueue's default 1).
    - `training_templates`: `mlplatform_training_job_template`s in the team's namespace, keyed by
      name, with the resource's attributes, except that the module fills in `queue` (default the
      team's first LocalQueue), the service account, and the billing labels (the team's, plus
      `project_label = project`); `priority` names a key of `priorities`. `schedules`: CronWorkflows
      that run the template (`mlplatform_training_schedule`), keyed by name.
    - `simulation`: the team's day of jobs for `data.mlplatform_capacity_simulation` (its
      `profiles`: when jobs arrive, their shapes, durations, priorities by key of `priorities`,
      checkpointing, node start, spot interruptions; `local_queue` defaults to the team's first).
      With any team's, the module simulates the day through its own queues: output `simulation`.
    - `labels`, `force_destroy` (see `mlplatform_team`).
  EOT

  validation {
    condition     = alltrue([for k, _ in var.teams : can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", k))])
    error_message = "teams: keys are the teams' names, their ClusterQueues' and (by default) namespaces' names: lower-case letters, digits and '-', at most 63. Wrong: ${join(", ", [for k, _ in var.teams : k if !can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", k))])}."
  }
  validation {
    condition = alltrue(flatten([for t in var.teams : [for q in t.gpus : [
      for n in [q.on_demand, q.spot, q.reserved, q.borrowing_limit, q.lending_limit] : n == null ? true : (n >= 0 && floor(n) == n)
    ]]]))
    error_message = "teams: gpus quotas and limits are whole GPUs, 0 or more (the module turns them into MIG instances, CPU and memory). Wrong in: ${join(", ", flatten([for k, t in var.teams : [for p, q in t.gpus : "teams.${k}.gpus.${p}" if anytrue([for n in [q.on_demand, q.spot, q.reserved, q.borrowing_limit, q.lending_limit] : n == null ? false : (n < 0 || floor(n) != n)])]]))}."
  }
  validation {
    condition     = alltrue([for t in var.teams : length(t.local_queues) > 0])
    error_message = "teams: local_queues needs at least one queue name, where the team's engineers submit. Empty in: ${join(", ", [for k, t in var.teams : k if length(t.local_queues) == 0])}."
  }
  validation {
    condition     = alltrue([for t in var.teams : length(flatten([for tpl in t.training_templates : keys(tpl.schedules)])) == length(distinct(flatten([for tpl in t.training_templates : keys(tpl.schedules)])))])
    error_message = "teams: schedules are CronWorkflows in the team's namespace, so their names are unique within a team across its templates. Repeated in: ${join(", ", [for k, t in var.teams : k if length(flatten([for tpl in t.training_templates : keys(tpl.schedules)])) != length(distinct(flatten([for tpl in t.training_templates : keys(tpl.schedules)])))])}."
  }
  validation {
    condition = alltrue(flatten([for t in var.teams : [
      for tpl in t.training_templates : (tpl.training_script == null) != (tpl.command == null)
    ]]))
    error_message = "teams: each training template sets exactly one of training_script and command. Wrong: ${join(", ", flatten([for k, t in var.teams : [for n, tpl in t.training_templates : "teams.${k}.training_templates.${n}" if(tpl.training_script == null) == (tpl.command == null)]]))}."
  }
}

variable "cohort_name" {
  type        = string
  default     = "training"
  description = "Name of the Kueue Cohort all teams' ClusterQueues join, so that a team borrows the others' idle quota (within their `borrowing_limit` and `lending_limit`)."
}

variable "priorities" {
  type = map(object({
    value       = number
    description = optional(string)
  }))
  default     = {}
  description = "Kueue WorkloadPriorityClasses, keyed by name: `value` (higher is admitted first and, as `preemption` allows, preempts lower) and a `description` for the people who submit. Training templates name one by key in `priority`."

  validation {
    condition     = alltrue([for p in var.priorities : floor(p.value) == p.value && p.value >= -2147483648 && p.value <= 2147483647])
    error_message = "priorities: each value is a whole number that fits in 32 bits. Wrong: ${join(", ", [for k, p in var.priorities : k if !(floor(p.value) == p.value && p.value >= -2147483648 && p.value <= 2147483647)])}."
  }
}

variable "preemption" {
  type = object({
    within_cluster_queue          = optional(string, "LowerPriority")
    reclaim_within_cohort         = optional(string, "Any")
    borrow_within_cohort          = optional(string, "Never")
    borrow_max_priority_threshold = optional(number)
  })
  default     = {}
  description = <<-EOT
    When a pending workload may preempt admitted ones, for every team's ClusterQueue (Kueue's
    `preemption`): `within_cluster_queue` (default `LowerPriority`: production preempts
    experiments of the same team), `reclaim_within_cohort` (default `Any`: a team takes back the
    quota it lent), `borrow_within_cohort` (`Never` or `LowerPriority`: whether a workload that
    borrows may preempt other teams' lower-priority work, up to `borrow_max_priority_threshold`;
    classic preemption only, not with `fair_sharing`).
  EOT

  validation {
    condition     = contains(["Never", "LowerPriority", "LowerOrNewerEqualPriority"], var.preemption.within_cluster_queue)
    error_message = "preemption.within_cluster_queue must be one of Never, LowerPriority, LowerOrNewerEqualPriority."
  }
  validation {
    condition     = contains(["Never", "LowerPriority", "Any"], var.preemption.reclaim_within_cohort)
    error_message = "preemption.reclaim_within_cohort must be one of Never, LowerPriority, Any."
  }
  validation {
    condition     = contains(["Never", "LowerPriority"], var.preemption.borrow_within_cohort)
    error_message = "preemption.borrow_within_cohort must be Never or LowerPriority."
  }
  validation {
    condition     = !(var.preemption.reclaim_within_cohort == "Never" && var.preemption.borrow_within_cohort != "Never")
    error_message = "preemption: borrow_within_cohort = LowerPriority needs reclaim_within_cohort other than Never (Kueue refuses the combination)."
  }
  validation {
    condition     = var.preemption.borrow_max_priority_threshold == null || var.preemption.borrow_within_cohort != "Never"
    error_message = "preemption.borrow_max_priority_threshold only applies with borrow_within_cohort = LowerPriority."
  }
}

variable "fair_sharing" {
  type        = bool
  default     = false
  description = "Whether Kueue shares the cohort's idle quota by fair sharing (each team's `fair_sharing_weight`) rather than first come, first served. Fair sharing is switched on in Kueue's own configuration (a `fairSharing` block), which the output `kueue_configuration` carries: give that to Kueue. With it on, the queues carry the teams' weights, and `preemption.borrow_within_cohort` must stay `Never`, as Kueue ignores it under fair sharing."
}

variable "kueue" {
  type = object({
    wait_for_pods_ready_timeout = optional(string, "30m")
  })
  default     = {}
  description = "Settings of the output `kueue_configuration`: `wait_for_pods_ready_timeout`, how long Kueue waits for an admitted run's pods to be ready before it evicts and requeues the run (`waitForPodsReady.timeout` and `recoveryTimeout`; default 30m, Kueue v0.19's). It must leave a new GPU node time to start: Karpenter gives up on one that has not registered after 15 minutes, and a large image takes minutes more."
  validation {
    condition     = can(regex("^([0-9]+h)?([0-9]+m)?([0-9]+s)?$", var.kueue.wait_for_pods_ready_timeout)) && var.kueue.wait_for_pods_ready_timeout != ""
    error_message = "kueue.wait_for_pods_ready_timeout: a duration such as 30m or 1h30m, not \"${var.kueue.wait_for_pods_ready_timeout}\"."
  }
  validation {
    condition = !can(regex("^([0-9]+h)?([0-9]+m)?([0-9]+s)?$", var.kueue.wait_for_pods_ready_timeout)) || (
      try(tonumber(regex("([0-9]+)h", var.kueue.wait_for_pods_ready_timeout)[0]), 0) * 3600 +
      try(tonumber(regex("([0-9]+)m", var.kueue.wait_for_pods_ready_timeout)[0]), 0) * 60 +
      try(tonumber(regex("([0-9]+)s", var.kueue.wait_for_pods_ready_timeout)[0]), 0)
    ) > 900
    error_message = "kueue.wait_for_pods_ready_timeout: ${var.kueue.wait_for_pods_ready_timeout} is not longer than 15 minutes, Karpenter's wait for a new node to register: Kueue would evict runs whose GPU node is still starting."
  }
}

variable "gpu_operator" {
  type = object({
    namespace = optional(string, "gpu-operator")
  })
  default     = {}
  description = "Where the NVIDIA GPU Operator runs: `namespace` (default `gpu-operator`), which must exist when a pool needs a config of the module's own there (a MIG layout that NVIDIA's default mig-parted config lacks, or time-slicing). See the output `gpu_operator_values`."
  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", var.gpu_operator.namespace))
    error_message = "gpu_operator.namespace: a namespace name (lower-case letters, digits and '-', at most 63), not \"${var.gpu_operator.namespace}\"."
  }
}

variable "allow_overcommit" {
  type        = bool
  default     = false
  description = "Allow the teams' quotas, summed per pool and capacity type, to exceed what the pool can supply (its `max_gpus`). Refused by default, since Kueue would then admit work that no node can ever run; when allowed, the output `overcommit` lists each excess. One team's quota above what a pool supplies is refused either way (by `mlplatform_cluster_queue` at plan): that team alone could never use it."
}

variable "billing" {
  type = object({
    namespace = optional(string, "monitoring")
    rules = optional(object({
      name                        = optional(string, "mlplatform-gpu-billing")
      labels                      = optional(map(string))
      alert_labels                = optional(map(string))
      evaluation_interval         = optional(string)
      admission_wait_slo          = optional(string)
      admission_wait_slo_per_team = optional(map(string))
      gpu_idle_alert_after        = optional(string)
      gpu_memory_alert_ratio      = optional(number)
      pending_alert_after         = optional(string)
      queue_inactive_alert_after  = optional(string)
      dcgm_node_label             = optional(string)
      dcgm_namespace_label        = optional(string)
      dcgm_pod_label              = optional(string)
    }))
    dashboard = optional(object({
      name       = optional(string)
      title      = optional(string)
      folder     = optional(string)
      datasource = optional(string)
    }))
  })
  default     = {}
  description = <<-EOT
    GPU-hour billing in the monitoring stack's `namespace` (default `monitoring`, which must exist).
    Each part is off while null and on with `{}` or settings:
    - `rules`: the recording rules and alerts (`mlplatform_gpu_billing_rules`, a PrometheusRule
      named `name`, default `mlplatform-gpu-billing`) that sum GPUs, GPU-hours and their cost per
      team, project, pool and capacity type, priced from every pool's `supplies`. `labels` must
      match the `ruleSelector` of your Prometheus (the resource's default is
      `{ release = "kube-prometheus-stack" }`); `admission_wait_slo_per_team` sets the admission
      wait SLO of a team's queue; the other settings are the resource's (alert thresholds and
      dcgm-exporter's label names).
    - `dashboard`: the Grafana dashboard (`mlplatform_gpu_dashboard`, a ConfigMap for Grafana's
      dashboard sidecar) of those series, in `folder`, reading the Prometheus data source
      `datasource` (default: Grafana's default).
  EOT
}

variable "simulation" {
  type = object({
    horizon            = optional(string, "24h")
    interval           = optional(string, "15m")
    seed               = optional(number, 1)
    max_jobs           = optional(number)
    compare_whole_gpus = optional(bool, false)
  })
  default     = {}
  description = "How the teams' `simulation` profiles are simulated (`data.mlplatform_capacity_simulation`): the `horizon`, the timeline's `interval`, the `seed` that draws the jobs, `max_jobs`, the most a plan simulates, and `compare_whole_gpus`: also simulate the same day with every MIG quota and job in whole GPUs (output `simulation_whole_gpus`), to see what the slices buy. Nothing is simulated unless a team has a `simulation` profile."
}

variable "preflight" {
  type = object({
    enabled             = optional(bool, true)
    kueue_namespace     = optional(string)
    karpenter_namespace = optional(string)
  })
  default     = {}
  description = "The preflight (`data.mlplatform_preflight`, the output `preflight`): on every plan it reads how the cluster runs Kueue, Karpenter and the GPU Operator and warns of each setting that differs from what this platform needs. `enabled` (default true) turns it off; the namespaces say where Kueue and Karpenter run when not where their Helm charts' instructions put them (`kueue-system`, `karpenter`); the GPU Operator's is `gpu_operator.namespace`."
  validation {
    condition = alltrue([for ns in [var.preflight.kueue_namespace, var.preflight.karpenter_namespace] :
    ns == null || can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", ns))])
    error_message = "preflight: the namespaces must be namespace names (lower-case letters, digits and '-', at most 63)."
  }
}

variable "multikueue" {
  type = object({
    name                = optional(string, "multikueue")
    kueue_namespace     = optional(string, "kueue-system")
    worker_lost_timeout = optional(string)
    workers = map(object({
      platform          = any
      kubeconfig_secret = optional(string)
    }))
  })
  default     = null
  description = <<-EOT
    Makes this cluster a MultiKueue manager (Kueue's multi-cluster dispatch): the teams' runs are
    submitted here as everywhere, and Kueue runs each on one of the `workers`, clusters this
    module laid out too (see examples/multi-cluster and the guide "Going multi-cluster"). Null
    (the default): a cluster on its own, or a worker.
    A manager runs no GPU nodes: it takes no `gpu_pools` and no teams' `gpus`; its flavors and
    quotas are its workers', summed. It writes an `mlplatform_multikueue_cluster` per worker, an
    `mlplatform_multikueue_config` and a multikueue `mlplatform_admission_check` (both named
    `name`, default `multikueue`) that every team's ClusterQueue applies.
    - `workers`, keyed by the MultiKueueCluster's name: `platform`, the worker's module output
      `multikueue_worker` (what the plan checks: every worker has every team's namespace and
      LocalQueues, and every flavor the manager's queues admit, on the same nodes); and
      `kubeconfig_secret`, the Secret in `kueue_namespace` that holds the kubeconfig Kueue reaches
      the worker with: the one this module writes from `multikueue_kubeconfigs` (default
      `<name>-kubeconfig`), or, for a worker without an entry there, a Secret that something else
      writes (key `kubeconfig`).
    - `kueue_namespace`: the namespace of Kueue's manager (default `kueue-system`).
    - `worker_lost_timeout`: how long a run stays on a worker that cannot be reached before Kueue
      dispatches it again (Kueue's `multiKueue.workerLostTimeout`, default 15m), written into the
      output `kueue_configuration`.
  EOT

  validation {
    condition     = var.multikueue == null || try(length(var.multikueue.workers) > 0, false)
    error_message = "multikueue.workers: a manager needs at least one worker."
  }
  validation {
    condition     = var.multikueue == null || try(alltrue([for w in var.multikueue.workers : can(w.platform.teams) && can(w.platform.pools) && can(w.platform.supplies) && can(w.platform.flavors)]), false)
    error_message = "multikueue.workers: each worker's platform is the output multikueue_worker of the module applied to that worker (module.<worker>.multikueue_worker)."
  }
  validation {
    condition     = try(var.multikueue.worker_lost_timeout, null) == null || can(regex("^([0-9]+h)?([0-9]+m)?([0-9]+s)?$", var.multikueue.worker_lost_timeout)) && try(var.multikueue.worker_lost_timeout, null) != ""
    error_message = "multikueue.worker_lost_timeout: a duration such as 15m or 1h."
  }
}

variable "multikueue_kubeconfigs" {
  type        = map(string)
  default     = {}
  sensitive   = true
  description = "On a MultiKueue manager: per worker (the keys of `multikueue.workers`), the kubeconfig (YAML) Kueue reaches it with, which the module writes into a Secret it owns. Its credential must be data, e.g. a service account token of the worker: Kueue takes no exec plugin (such as `aws eks get-token`), token file or insecure TLS, and the plan refuses them. A separate variable, so that only the kubeconfigs are sensitive. A worker without an entry needs `kubeconfig_secret`."
}
