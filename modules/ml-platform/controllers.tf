# The controllers' settings the platform declared here needs, for their releases: Kueue's own
# configuration (config.kueue.x-k8s.io/v1beta2 Configuration; Helm value
# managerConfig.controllerManagerConfigYaml), which Kueue completes with its defaults, and
# Karpenter's Helm values. A mismatch shows up as runs that wait forever or a bill of zeros, so
# every field below follows from the module's inputs.

locals {
  kueue_configuration = merge({
    apiVersion = "config.kueue.x-k8s.io/v1beta2"
    kind       = "Configuration"
    integrations = {
      # Argo's runs reach Kueue as plain pods; batch/job is Kueue's default, kept for other users.
      frameworks = ["batch/job", "pod"]
      # The run's name on its Workload: `kubectl get workloads -l workflows.argoproj.io/workflow=<run>`
      # shows why a run waits.
      labelKeysToCopy = ["workflows.argoproj.io/workflow"]
    }
    # The teams' namespaces carry this label (mlplatform_team's kueue_namespace_labels).
    managedJobsNamespaceSelector = { matchLabels = { "mlplatform.io/kueue-managed" = "true" } }
    # The billing rules and dashboard read kueue_cluster_queue_resource_usage, which Kueue exports
    # only with enableClusterQueueResources; the queues carry the teams' labels.
    metrics = {
      enableClusterQueueResources = true
      customLabels = [
        { name = "team", sourceLabelKey = "mlplatform.io/team" },
        { name = "cost_centre", sourceLabelKey = "mlplatform.io/cost-centre" },
      ]
    }
    # A run admitted to a flavor whose node is still starting must not be evicted before the node
    # is up: Karpenter gives up on a node that has not registered after 15 minutes.
    waitForPodsReady = {
      timeout         = var.kueue.wait_for_pods_ready_timeout
      recoveryTimeout = var.kueue.wait_for_pods_ready_timeout
      blockAdmission  = false
    }
    # The custom labels above are alpha in Kueue v0.19 (off by default).
    featureGates = { CustomMetricLabels = true }
    },
    # Kueue v1beta2 turns fair sharing on by the block's presence; these are its default strategies.
    var.fair_sharing ? { fairSharing = { preemptionStrategies = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"] } } : {},
    # A MultiKueue manager's timings; MultiKueue itself is on in every Kueue v0.19.
    try(var.multikueue.worker_lost_timeout, null) == null ? {} : { multiKueue = { workerLostTimeout = var.multikueue.worker_lost_timeout } },
  )
}

locals {
  # Pools that split GPUs into MIG slices under the mixed strategy (the default) tell Karpenter the
  # slices with NodeOverlays, which Karpenter reads only with its NodeOverlay gate (alpha).
  mixed_mig_pools = sort([for k, p in var.gpu_pools : k if p.mig != null && coalesce(try(p.mig.strategy, null), "mixed") == "mixed"])
  karpenter_values = {
    settings = { featureGates = { nodeOverlay = length(local.mixed_mig_pools) > 0 } }
  }
}

# --- NVIDIA GPU Operator -------------------------------------------------------------------------
# The MIG manager knows a node's `nvidia.com/mig.config` name only from its config, and the device
# plugin shares GPUs only as its config says. NVIDIA's default mig-parted config has the `all-*`
# layouts; a pool with another layout needs a config of the module's own, and then that config is
# the only one the MIG manager reads, so it lists every name the pools use.

locals {
  mig_pools           = { for k, p in var.gpu_pools : k => p if p.mig != null }
  mig_strategy        = one(distinct([for p in local.mig_pools : coalesce(p.mig.strategy, "mixed")]))
  mig_parted_config   = "mlplatform-mig-parted-config"
  device_plugin_name  = "mlplatform-device-plugin-config"
  time_slicing        = sort(distinct([for p in var.gpu_pools : tostring(p.time_slicing_replicas) if p.time_slicing_replicas != null]))
  device_plugin_label = { for k, p in var.gpu_pools : k => "time-slicing-${p.time_slicing_replicas}" if p.time_slicing_replicas != null }
}

# The layout each MIG pool's GPUs get, as the pool resolves it (no API calls).
data "mlplatform_mig_layout" "pool" {
  for_each = local.mig_pools

  gpu      = each.value.model
  profiles = each.value.mig.profiles
  config   = each.value.mig.config
  strategy = local.mig_strategy
}

locals {
  custom_mig_layout = anytrue([for d in data.mlplatform_mig_layout.pool : d.custom_config])
  mig_configs_used = { for d in data.mlplatform_mig_layout.pool : d.valid_config_name => {
    gpu = d.model, mig_enabled = true, mig_devices = d.layout
  }... }
}

resource "mlplatform_mig_config" "this" {
  count = local.custom_mig_layout ? 1 : 0

  name      = local.mig_parted_config
  namespace = var.gpu_operator.namespace
  mig_configs = merge(
    { "all-disabled" = { entries = [{ mig_enabled = false }] } },
    { for name, entries in local.mig_configs_used : name => { entries = distinct(entries) } },
  )
}

resource "mlplatform_time_slicing_config" "this" {
  count = length(local.time_slicing) > 0 ? 1 : 0

  name      = local.device_plugin_name
  namespace = var.gpu_operator.namespace
  configs = merge(
    # Nodes without the label (every pool that does not time-slice) share nothing.
    { "whole-gpus" = { mig_strategy = coalesce(local.mig_strategy, "none") } },
    { for r in local.time_slicing : "time-slicing-${r}" => {
      mig_strategy = coalesce(local.mig_strategy, "none")
      resources    = [{ name = "nvidia.com/gpu", replicas = tonumber(r) }]
    } },
  )
}

locals {
  gpu_operator_values = merge(
    local.mig_strategy == null ? {} : { mig = { strategy = local.mig_strategy } },
    {
      migManager = { config = {
        name    = local.custom_mig_layout ? local.mig_parted_config : "default-mig-parted-config"
        default = "all-disabled"
      } }
    },
    length(local.time_slicing) == 0 ? {} : {
      devicePlugin = { config = { name = local.device_plugin_name, default = "whole-gpus" } }
    },
    # The billing rules and dashboard read dcgm-exporter's metrics.
    { dcgmExporter = { enabled = true } },
  )
}
