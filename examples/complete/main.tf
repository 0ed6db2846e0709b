# The seed platform as one call of modules/ml-platform, applied by `make demo` (to KUBE_CONFIG_PATHS):
# A100 80GB whole and sliced 1g.10gb on on-demand and spot, H100s, three teams, templates, the bill.

terraform {
  required_providers {
    mlplatform = { source = "mlplatform/mlplatform" }
  }
}

provider "mlplatform" {
  default_labels = { "mlplatform.io/cost-centre" = "ml-platform", "app.kubernetes.io/managed-by" = "terraform" }
}

locals {
  # Quotas are whole GPUs; each brings the CPU and memory its share of a node offers (supplies).
  a100 = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  templates = {
    nlp = { sentiment-model = {
      image           = "ghcr.io/acme/sentiment-trainer:1.4.0", source = { git_repo = "https://github.com/acme/models.git" }, training_script = "train.py"
      priority        = "production", project = "sentiment", capacity = "spot", checkpoint = { uri = "s3://acme-checkpoints/training" }
      dataset_version = "2024-06", hyperparameters = { learning_rate = "3e-4", batch_size = "32" }
      hardware        = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 128, shm_size_gb = 16 }
      active_deadline = "48h", ttl_after_finished = "72h" # the deadline counts the time queued too
      schedules       = { nightly-sentiment = { cron = ["0 2 * * 1-5"], timezone = "Europe/Berlin", parameters = { dataset_version = "latest" } } }
    } }
    research = { mig-experiment = {
      image    = "ghcr.io/acme/research:0.3", command = ["python", "-m", "experiments.small"], hyperparameters = { seed = "42" }
      priority = "experiment", project = "mig-study", hardware = { gpu_type = "a100-1g.10gb", cpu_cores = 1, memory_gb = 16 }
    } }
  }
}

module "platform" {
  source       = "../../modules/ml-platform"
  cluster_name = "training"
  node_class   = { billing = { team = "ml-platform" } }
  gpu_pools = {
    a100        = merge(local.a100, { name = "a100-80gb", on_demand = { max_gpus = 8 }, spot = { max_gpus = 24, discount = 0.6 }, billing = { project = "fine-tuning" } })
    a100-1g10gb = merge(local.a100, { name = "a100-80gb-mig", mig = { config = "all-1g.10gb" }, on_demand = { max_gpus = 8 }, spot = { max_gpus = 8, discount = 0.6 }, billing = { project = "experiments" } })
    h100        = { model = "h100", instance_types = ["p5.48xlarge"], on_demand = { max_gpus = 16 }, billing = { project = "pretraining" } }
  }
  teams = { for team, cost_centre in { research = "cc-4101", vision = "cc-4102", nlp = "cc-4103" } : team => {
    cost_centre        = cost_centre
    member_groups      = ["${team}-engineers"]
    gpus               = { a100 = { on_demand = 2, spot = 8 }, a100-1g10gb = { on_demand = team == "nlp" ? 2 : 3, spot = team == "nlp" ? 2 : 3 }, h100 = { on_demand = 5 } }
    training_templates = try(local.templates[team], {})
    # The team's day, simulated at plan through these queues (output simulation): 13 jobs, a
    # third 4-GPU training runs, the rest one-slice experiments, most in working hours.
    simulation = {
      jobs_per_day = 13
      daily_shape  = [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 2, 2, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0]
      shapes = [
        { weight = 1, gpu_type = "a100-80gb", gpus = 4 },
        { weight = 2, gpu_type = "a100-80gb", mig_profile = "1g.10gb" },
      ]
      duration                    = { distribution = "lognormal", mean = "2h", p95 = "6h", max = "24h" }
      priorities                  = { production = 1, experiment = 2 }
      checkpoint                  = true
      node_start                  = "5m"
      spot_interruptions_per_hour = 0.05
    }
  } }
  priorities = {
    production = { value = 1000, description = "Production training: admitted first, may preempt experiments in its queue." }
    experiment = { value = 100, description = "Experiments and sweeps: may be preempted, so checkpoint to durable storage." }
  }
  # Production waits for quota at most 30 minutes, research 2 hours; then an alert fires.
  billing    = { rules = { name = "gpu-billing", admission_wait_slo = "30m", admission_wait_slo_per_team = { research = "2h" } }, dashboard = { folder = "ML platform" } }
  simulation = { compare_whole_gpus = true }
}

output "submit_commands" { value = module.platform.submit_commands }
output "submit_manifests" { value = module.platform.submit_manifests }
# The controllers' settings this platform needs, for their Helm releases (docs/guides/prerequisites.md).
output "kueue_configuration" { value = module.platform.kueue_configuration }
output "karpenter_values" { value = module.platform.karpenter_values }
output "gpu_operator_values" { value = module.platform.gpu_operator_values }
# What the cluster runs otherwise than those settings say, with the Helm value to change.
output "preflight" { value = module.platform.preflight }
output "queues" { value = module.platform.queues }
output "supplies" { value = module.platform.supplies }
output "hourly_cost_ceiling" { value = module.platform.hourly_cost_ceiling }
# The seed's day with its MIG slices and the same day in whole GPUs (simulation.compare_whole_gpus),
# side by side: each team's p95 wait and GPU-hours, each flavor's utilisation.
output "simulation" {
  value = { for v, sim in { with_mig = module.platform.simulation, whole_gpus = module.platform.simulation_whole_gpus } : v => sim == null ? null : {
    wait_p95_minutes = { for t, r in sim.teams : t => r.wait_p95_minutes }
    gpu_hours        = { for t, r in sim.teams : t => r.gpu_hours }
    utilisation      = { for f in sim.flavor_usage : "${f.flavor} ${f.resource}" => f.utilisation }
  } }
}
