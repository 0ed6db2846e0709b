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
