# One platform, two clusters: the module applied through two aliases of the provider, each
# connected to its own cluster. What differs between them is the size of the GPU pools; the
# teams' quotas follow from it (an even share each), so resizing a cluster is a one-line change
# in local.sizes, and adding a cluster is a provider alias and a module block.
#
#   terraform apply -var staging_kubeconfig=~/.kube/staging -var production_kubeconfig=~/.kube/production

terraform {
  required_providers {
    mlplatform = {
      source = "mlplatform/mlplatform"
    }
  }
}

variable "staging_kubeconfig" {
  type        = string
  description = "Path of the kubeconfig of the staging cluster."
}

variable "production_kubeconfig" {
  type        = string
  description = "Path of the kubeconfig of the production cluster."
}

provider "mlplatform" {
  alias          = "staging"
  config_path    = var.staging_kubeconfig
  default_labels = { "mlplatform.io/environment" = "staging" }
}

provider "mlplatform" {
  alias          = "production"
  config_path    = var.production_kubeconfig
  default_labels = { "mlplatform.io/environment" = "production" }
}

locals {
  # GPUs per cluster: A100 80GB on-demand and spot, and A100s sliced into 1g.10gb for experiments.
  sizes = {
    staging    = { on_demand = 4, spot = 8, sliced = 2 }
    production = { on_demand = 16, spot = 48, sliced = 8 }
  }
  teams = ["research", "nlp"]

  a100 = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  platform = { for cluster, size in local.sizes : cluster => {
    cluster_name = "training-${cluster}"
    gpu_pools = {
      a100     = merge(local.a100, { on_demand = { max_gpus = size.on_demand }, spot = { max_gpus = size.spot, discount = 0.6 } })
      a100-mig = merge(local.a100, { mig = { config = "all-1g.10gb" }, spot = { max_gpus = size.sliced, discount = 0.6 } })
    }
    # Each team an even share of every pool, in whole GPUs.
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
}

module "staging" {
  source    = "../../modules/ml-platform"
  providers = { mlplatform = mlplatform.staging }

  cluster_name = local.platform.staging.cluster_name
  gpu_pools    = local.platform.staging.gpu_pools
  teams        = local.platform.staging.teams
  priorities   = local.priorities
}

module "production" {
  source    = "../../modules/ml-platform"
  providers = { mlplatform = mlplatform.production }

  cluster_name = local.platform.production.cluster_name
  gpu_pools    = local.platform.production.gpu_pools
  teams        = local.platform.production.teams
  priorities   = local.priorities
}

output "queues" {
  description = "Each cluster's team queues, whether Kueue reports them Active, and their LocalQueues."
  value       = { staging = module.staging.queues, production = module.production.queues }
}

output "quotas" {
  description = "Each cluster's team quotas, per flavor, in whole GPUs and as written on the queues."
  value       = { staging = module.staging.quotas, production = module.production.quotas }
}

output "hourly_cost_ceiling" {
  description = "What each cluster's GPUs can cost per hour at most, per team and per pool (USD)."
  value       = { staging = module.staging.hourly_cost_ceiling, production = module.production.hourly_cost_ceiling }
}
