# The complete platform, applied by `make demo`. The connection comes from the environment
# (KUBE_CONFIG_PATH / KUBE_CONFIG_PATHS), so the same configuration works on any cluster.
#
# Two GPU fleets (A100 80GB sliced into 1g.10gb MIG instances, on on-demand and spot nodes, and
# whole H100s), Kueue flavors fed from what the fleets supply, and three team queues that share
# the fleets through one cohort.

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

variable "cluster_name" {
  type        = string
  default     = "training"
  description = "EKS cluster name; subnets and security groups are found by its karpenter.sh/discovery tag."
}

locals {
  teams = toset(["research", "vision", "nlp"])
}

# --- GPU nodes (Karpenter) ---------------------------------------------------------------

resource "mlplatform_node_class" "gpu" {
  name = "gpu"
  role = "KarpenterNodeRole-${var.cluster_name}"

  ami_selector            = [{ alias = "al2023@latest" }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = var.cluster_name } }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = var.cluster_name } }]
  block_device = [{
    device_name = "/dev/xvda"
    root_volume = true
    volume_size = "500Gi"
    volume_type = "gp3"
  }]

  billing = { team = "ml-platform" }
}

# 48 A100 80GB GPUs on p4de.24xlarge (8 per node): 16 on-demand for critical work, 32 spot for
# training that checkpoints. Sliced all-1g.10gb: 7 nvidia.com/mig-1g.10gb per GPU.
resource "mlplatform_gpu_node_pool" "a100" {
  name       = "a100-80gb"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  mig        = { strategy = "mixed", config = "all-1g.10gb" }
  on_demand  = { max_gpus = 16 }
  spot       = { max_gpus = 32 }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  # On the nodes as labels and, through the pool's copy of the node class, on the EC2 instances
  # and volumes as tags.
  billing = { project = "fine-tuning" }
}

# 16 whole H100 GPUs on p5.48xlarge, on-demand only.
resource "mlplatform_gpu_node_pool" "h100" {
  name       = "h100"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "h100", instance_types = ["p5.48xlarge"] }
  on_demand  = { max_gpus = 16 }
  billing    = { project = "pretraining" }
}

# --- Kueue flavors, fed from what the pools supply (known at plan time) ------------------

locals {
  supplies = {
    "a100-1g10gb-on-demand" = mlplatform_gpu_node_pool.a100.supplies["on-demand"]
    "a100-1g10gb-spot"      = mlplatform_gpu_node_pool.a100.supplies["spot"]
    "h100-on-demand"        = mlplatform_gpu_node_pool.h100.supplies["on-demand"]
  }
}

resource "mlplatform_resource_flavor" "gpu" {
  for_each = local.supplies

  name        = each.key
  node_labels = each.value.node_labels
  node_taints = each.value.taints
  tolerations = each.value.tolerations
}

# --- Kueue queues --------------------------------------------------------------------------
# Each team gets 15 A100 80GB GPUs as 105 1g.10gb slices (35 on on-demand, 70 on spot nodes,
# with the CPU and memory that come with them: p4de.24xlarge has 12 vCPUs and 144 GiB per GPU),
# and 5 H100s. The three teams borrow each other's idle quota through one cohort.

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

  # A100 slices: on-demand first, then spot.
  resource_group {
    covered_resources = ["nvidia.com/mig-1g.10gb", "cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.gpu["a100-1g10gb-on-demand"].name
      resource {
        name          = "nvidia.com/mig-1g.10gb"
        nominal_quota = "35"
      }
      resource {
        name          = "cpu"
        nominal_quota = "60"
      }
      resource {
        name          = "memory"
        nominal_quota = "720Gi"
      }
    }
    flavor {
      name = mlplatform_resource_flavor.gpu["a100-1g10gb-spot"].name
      resource {
        name          = "nvidia.com/mig-1g.10gb"
        nominal_quota = "70"
      }
      resource {
        name          = "cpu"
        nominal_quota = "120"
      }
      resource {
        name          = "memory"
        nominal_quota = "1440Gi"
      }
    }
  }

  # Whole H100s.
  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = mlplatform_resource_flavor.gpu["h100-on-demand"].name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "5"
      }
    }
  }

  # Production runs preempt experiments in the same queue, and a team reclaims lent quota.
  preemption = {
    within_cluster_queue  = "LowerPriority"
    reclaim_within_cohort = "Any"
  }

  labels = { "mlplatform.io/team" = each.key }
}

# Each team submits to the LocalQueue "training" in its own namespace (which must exist).
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

output "supplies" {
  description = "What each GPU pool can supply at most, per capacity type."
  value = {
    for name, s in local.supplies : name => s.resources
  }
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
