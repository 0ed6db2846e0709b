# One platform, three clusters: two GPU clusters (east and west) and, in front of them, a
# MultiKueue manager. The module is applied through three aliases of the provider. The workers
# get the GPU pools and the teams' quotas, sized per cluster in local.sizes. The manager runs no
# GPU nodes. It gets the teams (namespaces, queues, templates), and its queues hold the workers'
# quotas summed. ML engineers submit every run to the manager. Kueue runs each one on a worker
# that has room and reports its end back on the manager.
#
#   terraform apply -var manager_kubeconfig=~/.kube/manager \
#     -var east_kubeconfig=~/.kube/east -var west_kubeconfig=~/.kube/west \
#     -var east_multikueue_kubeconfig="$(cat east-kueue.kubeconfig)" \
#     -var west_multikueue_kubeconfig="$(cat west-kueue.kubeconfig)"
#
# Adding a worker takes a provider alias, a module block and an entry in multikueue.workers.
# Resizing one is a one-line change in local.sizes; the manager follows.

terraform {
  required_providers {
    mlplatform = {
      source = "mlplatform/mlplatform"
    }
  }
}

variable "manager_kubeconfig" {
  type        = string
  description = "Path of the kubeconfig Terraform reaches the manager cluster with."
}

variable "east_kubeconfig" {
  type        = string
  description = "Path of the kubeconfig Terraform reaches the east cluster with."
}

variable "west_kubeconfig" {
  type        = string
  description = "Path of the kubeconfig Terraform reaches the west cluster with."
}

variable "east_multikueue_kubeconfig" {
  type        = string
  sensitive   = true
  description = "The kubeconfig (YAML) through which the manager's Kueue reaches the east cluster. Its credential must be data, e.g. a service account token of east, because Kueue takes no exec plugin such as `aws eks get-token`. See the guide \"Going multi-cluster\"."
}

variable "west_multikueue_kubeconfig" {
  type        = string
  sensitive   = true
  description = "The kubeconfig through which the manager's Kueue reaches the west cluster, as for east."
}

variable "worker_lost_timeout" {
  type        = string
  default     = "15m"
  description = "How long a run stays on a worker the manager cannot reach before Kueue dispatches it again. Kueue's default is 15m."
}

provider "mlplatform" {
  alias          = "manager"
  config_path    = var.manager_kubeconfig
  default_labels = { "mlplatform.io/cluster" = "manager" }
}

provider "mlplatform" {
  alias          = "east"
  config_path    = var.east_kubeconfig
  default_labels = { "mlplatform.io/cluster" = "east" }
}

provider "mlplatform" {
  alias          = "west"
  config_path    = var.west_kubeconfig
  default_labels = { "mlplatform.io/cluster" = "west" }
}

locals {
  # GPUs per worker: whole A100 80GB on-demand and spot GPUs, and A100s sliced into 1g.10gb.
  sizes = {
    east = { on_demand = 4, spot = 8, sliced = 2 }
    west = { on_demand = 8, spot = 16, sliced = 4 }
  }
  teams = ["research", "nlp"]

  a100 = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  workers = { for cluster, size in local.sizes : cluster => {
    cluster_name = "training-${cluster}"
    gpu_pools = {
      a100     = merge(local.a100, { on_demand = { max_gpus = size.on_demand }, spot = { max_gpus = size.spot, discount = 0.6 } })
      a100-mig = merge(local.a100, { mig = { config = "all-1g.10gb" }, spot = { max_gpus = size.sliced, discount = 0.6 } })
    }
    # Each team gets an even share of every pool, in whole GPUs.
    teams = { for t in local.teams : t => {
      member_groups = ["${t}-engineers"]
      gpus = {
        a100     = { on_demand = floor(size.on_demand / length(local.teams)), spot = floor(size.spot / length(local.teams)) }
        a100-mig = { spot = floor(size.sliced / length(local.teams)) }
      }
    } }
  } }
  priorities = {
    production = { value = 1000, description = "Production training: admitted first, may preempt experiments." }
    experiment = { value = 100, description = "Experiments: may be preempted, so checkpoint." }
  }
  # The templates engineers run. They live on the manager, where runs are submitted.
  templates = {
    research = { finetune = {
      image    = "ghcr.io/acme/finetune:2.1", command = ["python", "-m", "finetune"], priority = "production", project = "llm-finetune"
      hardware = { gpu_type = "a100-80gb", gpus = 1, cpu_cores = 8, memory_gb = 64 }
    } }
  }
}

module "east" {
  source    = "../../modules/ml-platform"
  providers = { mlplatform = mlplatform.east }

  cluster_name = local.workers.east.cluster_name
  gpu_pools    = local.workers.east.gpu_pools
  teams        = local.workers.east.teams
  priorities   = local.priorities
}

module "west" {
  source    = "../../modules/ml-platform"
  providers = { mlplatform = mlplatform.west }

  cluster_name = local.workers.west.cluster_name
  gpu_pools    = local.workers.west.gpu_pools
  teams        = local.workers.west.teams
  priorities   = local.priorities
}

# The manager: the same teams, without GPUs. Its quotas are the workers' summed.
module "manager" {
  source    = "../../modules/ml-platform"
  providers = { mlplatform = mlplatform.manager }

  cluster_name = "training-manager"
  teams = { for t in local.teams : t => {
    member_groups      = ["${t}-engineers"]
    training_templates = try(local.templates[t], {})
  } }
  priorities = local.priorities
  multikueue = {
    worker_lost_timeout = var.worker_lost_timeout
    workers = {
      east = { platform = module.east.multikueue_worker }
      west = { platform = module.west.multikueue_worker }
    }
  }
  multikueue_kubeconfigs = { east = var.east_multikueue_kubeconfig, west = var.west_multikueue_kubeconfig }
}

output "queues" {
  description = "Each cluster's team queues, whether Kueue reports them Active, and their LocalQueues. The manager's queues are Active while Kueue reaches at least one worker."
  value       = { manager = module.manager.queues, east = module.east.queues, west = module.west.queues }
}

output "quotas" {
  description = "Each cluster's team quotas, per flavor, in whole GPUs and as written on the queues. The manager's are the workers' summed."
  value       = { manager = module.manager.quotas, east = module.east.quotas, west = module.west.quotas }
}

output "multikueue" {
  description = "The manager's admission check, MultiKueueConfig and workers."
  value       = module.manager.multikueue
}

output "submit_manifests" {
  description = "The Workflows that engineers create on the manager (`kubectl create -f`), one per template."
  value       = module.manager.submit_manifests
}

output "preflight" {
  description = "What each cluster runs otherwise than its part of the platform needs. On the manager, only Kueue is checked."
  value       = { manager = module.manager.preflight, east = module.east.preflight, west = module.west.preflight }
}

output "hourly_cost_ceiling" {
  description = "What each worker's GPUs can cost per hour at most, per team and per pool (USD)."
  value       = { east = module.east.hourly_cost_ceiling, west = module.west.hourly_cost_ceiling }
}
