# The complete platform, applied by `make demo`. The connection comes from the environment
# (KUBE_CONFIG_PATH / KUBE_CONFIG_PATHS), so the same configuration works on any cluster.

terraform {
  required_providers {
    mlplatform = {
      source = "mlplatform/mlplatform"
    }
  }
}

provider "mlplatform" {
  default_labels = {
    "billing.mlplatform.io/cost-centre" = "ml-platform"
    "app.kubernetes.io/managed-by"      = "terraform"
  }
}

locals {
  gpu_taint = {
    key    = "nvidia.com/gpu"
    value  = "true"
    effect = "NoSchedule"
  }
  gpu_toleration = {
    key      = "nvidia.com/gpu"
    operator = "Exists"
    effect   = "NoSchedule"
  }
}

# One flavor per GPU model and capacity type: critical work stays on on-demand,
# fault-tolerant training (which checkpoints) may use spot.
resource "mlplatform_resource_flavor" "a100" {
  for_each = toset(["on-demand", "spot"])

  name = "a100-80gb-${each.key}"
  node_labels = {
    "nvidia.com/gpu.product"     = "NVIDIA-A100-SXM4-80GB"
    "karpenter.sh/capacity-type" = each.key
  }
  node_taints = [local.gpu_taint]
  tolerations = [local.gpu_toleration]
}

resource "mlplatform_resource_flavor" "h100" {
  name = "h100-80gb-on-demand"
  node_labels = {
    "nvidia.com/gpu.product"     = "NVIDIA-H100-80GB-HBM3"
    "karpenter.sh/capacity-type" = "on-demand"
  }
  node_taints = [local.gpu_taint]
  tolerations = [local.gpu_toleration]
}

# CPU-only nodes for data preparation and evaluation.
resource "mlplatform_resource_flavor" "cpu" {
  name = "cpu"
}

output "flavors" {
  description = "The ResourceFlavors this platform declares."
  value = concat(
    [for f in mlplatform_resource_flavor.a100 : f.name],
    [mlplatform_resource_flavor.h100.name, mlplatform_resource_flavor.cpu.name],
  )
}

# Kueue queues. Three teams share 45 A100 80GB GPUs, 15 each, and borrow each other's idle GPUs
# through one cohort. Each team submits to the LocalQueue "training" in its own namespace (which
# must exist), and picks a priority with the label kueue.x-k8s.io/priority-class.
locals {
  teams = toset(["research", "vision", "nlp"])
}

resource "mlplatform_cohort" "training" {
  name = "training"
}

resource "mlplatform_cluster_queue" "team" {
  for_each = local.teams

  name   = each.key
  cohort = mlplatform_cohort.training.name
  # Only the team's own namespace may submit (unset would admit none, {} every namespace).
  namespace_selector = {
    match_labels = { "kubernetes.io/metadata.name" = each.key }
  }

  # 15 GPUs on on-demand A100 nodes, with the CPU and memory that come with them
  # (p4de.24xlarge: 8 GPUs, 96 vCPUs, 1152 GiB per node).
  resource_group {
    covered_resources = ["nvidia.com/gpu", "cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.a100["on-demand"].name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "15"
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

  # Production runs preempt experiments in the same queue, and a team reclaims lent GPUs.
  preemption = {
    within_cluster_queue  = "LowerPriority"
    reclaim_within_cohort = "Any"
  }

  labels = { "mlplatform.io/team" = each.key }
}

resource "mlplatform_local_queue" "team" {
  for_each = local.teams

  namespace     = each.key
  name          = "training"
  cluster_queue = mlplatform_cluster_queue.team[each.key].name
  labels        = { "mlplatform.io/team" = each.key }
}

resource "mlplatform_workload_priority_class" "production" {
  name        = "production"
  value       = 1000
  description = "Production training: admitted first, may preempt experiments in its queue."
}

resource "mlplatform_workload_priority_class" "experiment" {
  name        = "experiment"
  value       = 100
  description = "Experiments and sweeps: may be preempted, so checkpoint to durable storage."
}

output "queues" {
  description = "Each team's ClusterQueue, whether Kueue reports it Active, and its LocalQueue."
  value = {
    for team, q in mlplatform_cluster_queue.team : team => {
      cluster_queue = q.name
      active        = q.active
      local_queue   = "${mlplatform_local_queue.team[team].namespace}/${mlplatform_local_queue.team[team].name}"
    }
  }
}
