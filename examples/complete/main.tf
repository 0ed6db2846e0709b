# The complete platform, applied by `make demo`. The connection comes from the environment
# (KUBE_CONFIG_PATH / KUBE_CONFIG_PATHS), so the same configuration works on any cluster.
#
# GPU fleets (A100 80GB as whole GPUs and sliced into 1g.10gb MIG instances, on on-demand and
# spot nodes, and whole H100s), Kueue flavors fed from what the fleets supply, three teams (their
# namespaces, queues sharing the fleets through one cohort, access, and the rule that every pod
# names its project), and the training templates ML engineers submit.

terraform {
  required_providers {
    mlplatform = {
      source = "mlplatform/mlplatform"
    }
  }
}

provider "mlplatform" {
  default_labels = {
    "mlplatform.io/cost-centre"    = "ml-platform"
    "app.kubernetes.io/managed-by" = "terraform"
  }
}

variable "cluster_name" {
  type        = string
  default     = "training"
  description = "EKS cluster name; subnets and security groups are found by its karpenter.sh/discovery tag."
}

locals {
  teams = toset(["research", "vision", "nlp"])
  # Each team's cost centre: a label on its namespace and objects, and in its pods' labels.
  cost_centres = { research = "cc-4101", vision = "cc-4102", nlp = "cc-4103" }
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

# 48 A100 80GB GPUs on p4de.24xlarge (8 per node). 32 whole GPUs for training (8 on-demand for
# critical work, 24 spot for training that checkpoints) ...
resource "mlplatform_gpu_node_pool" "a100" {
  name       = "a100-80gb"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  on_demand  = { max_gpus = 8 }
  spot       = { max_gpus = 24 }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  # On the nodes as labels and, through the pool's copy of the node class, on the EC2 instances
  # and volumes as tags.
  billing = { project = "fine-tuning" }
}

# ... and 16 sliced all-1g.10gb for experiments: 7 nvidia.com/mig-1g.10gb per GPU.
resource "mlplatform_gpu_node_pool" "a100_mig" {
  name       = "a100-80gb-mig"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  mig        = { strategy = "mixed", config = "all-1g.10gb" }
  on_demand  = { max_gpus = 8 }
  spot       = { max_gpus = 8 }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  billing    = { project = "experiments" }
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
  # In the order Kueue tries them: on-demand before spot, whole GPUs before slices.
  supplies = {
    "a100-on-demand"        = mlplatform_gpu_node_pool.a100.supplies["on-demand"]
    "a100-spot"             = mlplatform_gpu_node_pool.a100.supplies["spot"]
    "a100-1g10gb-on-demand" = mlplatform_gpu_node_pool.a100_mig.supplies["on-demand"]
    "a100-1g10gb-spot"      = mlplatform_gpu_node_pool.a100_mig.supplies["spot"]
    "h100-on-demand"        = mlplatform_gpu_node_pool.h100.supplies["on-demand"]
  }
  flavor_order = ["a100-on-demand", "a100-spot", "a100-1g10gb-on-demand", "a100-1g10gb-spot", "h100-on-demand"]
}

resource "mlplatform_resource_flavor" "gpu" {
  for_each = local.supplies

  name        = each.key
  node_labels = each.value.node_labels
  node_taints = each.value.taints
  tolerations = each.value.tolerations
}

# --- Kueue queues --------------------------------------------------------------------------
# Each team's share of every flavor, with the CPU and memory that come with it (p4de.24xlarge has
# 12 vCPUs and 144 GiB per GPU, about 1.7 vCPUs and 20 GiB per 1g.10gb slice; p5.48xlarge 24
# vCPUs and 256 GiB per GPU). One resource group covers all four resources, since Kueue lets a
# resource (cpu, memory) be in one group only; a flavor gives 0 of a GPU resource its nodes do
# not have. The three teams borrow each other's idle quota through one cohort.

locals {
  covered = ["nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "cpu", "memory"]
  team_quota = {
    "a100-on-demand"        = { "nvidia.com/gpu" = "2", "nvidia.com/mig-1g.10gb" = "0", cpu = "24", memory = "288Gi" }
    "a100-spot"             = { "nvidia.com/gpu" = "8", "nvidia.com/mig-1g.10gb" = "0", cpu = "96", memory = "1152Gi" }
    "a100-1g10gb-on-demand" = { "nvidia.com/gpu" = "0", "nvidia.com/mig-1g.10gb" = "18", cpu = "30", memory = "360Gi" }
    "a100-1g10gb-spot"      = { "nvidia.com/gpu" = "0", "nvidia.com/mig-1g.10gb" = "18", cpu = "30", memory = "360Gi" }
    "h100-on-demand"        = { "nvidia.com/gpu" = "5", "nvidia.com/mig-1g.10gb" = "0", cpu = "120", memory = "1280Gi" }
  }
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
    match_labels = { "mlplatform.io/team" = each.key }
  }

  resource_group {
    covered_resources = local.covered
    dynamic "flavor" {
      for_each = local.flavor_order
      content {
        name = mlplatform_resource_flavor.gpu[flavor.value].name
        # One block per covered resource, in the order of covered_resources.
        dynamic "resource" {
          for_each = local.covered
          content {
            name          = resource.value
            nominal_quota = local.team_quota[flavor.value][resource.value]
          }
        }
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

# --- Teams ----------------------------------------------------------------------------------
# Each team's namespace (billing labels, and the label Kueue's managedJobsNamespaceSelector
# selects), the LocalQueue "training" its engineers submit to, their access, and an admission
# policy that refuses a pod without the label mlplatform.io/project, so every GPU-hour is billed.
resource "mlplatform_team" "team" {
  for_each = local.teams

  name          = each.key
  cost_centre   = local.cost_centres[each.key]
  local_queues  = { training = mlplatform_cluster_queue.team[each.key].name }
  member_groups = ["${each.key}-engineers"]
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

# --- Training templates (Argo Workflows) ----------------------------------------------------
# What ML engineers submit, e.g. `argo submit --from workflowtemplate/sentiment-model -n nlp
# -p learning_rate=1e-4` (`terraform output submit_commands` prints each template's line). Every
# pod carries its team's queue, priority and billing labels; a run preempted by Kueue or whose
# spot node is reclaimed is retried and resumes from its checkpoint, and a genuine failure
# (exit 1, OOMKilled) is not retried. Before a template is written, the provider checks that its
# queue can admit one of its pods.

# The nlp team's sentiment model: one whole A100 80GB on spot, with checkpoints.
resource "mlplatform_training_job_template" "sentiment" {
  namespace       = mlplatform_team.team["nlp"].namespace
  name            = "sentiment-model"
  queue           = "training"
  priority_class  = mlplatform_workload_priority_class.production.name
  service_account = mlplatform_team.team["nlp"].workflow_service_account
  billing         = merge(mlplatform_team.team["nlp"].pod_labels, { "mlplatform.io/project" = "sentiment" })

  source          = { git_repo = "https://github.com/acme/models.git" }
  image           = "ghcr.io/acme/sentiment-trainer:1.4.0"
  training_script = "train.py"
  dataset_version = "2024-06"
  hyperparameters = {
    learning_rate = "3e-4"
    batch_size    = "32"
  }

  hardware = {
    gpu_type    = "a100-80gb"
    gpu_count   = 1
    cpu_cores   = 8
    memory_gb   = 128
    shm_size_gb = 16
  }
  capacity   = "spot"
  checkpoint = { uri = "s3://acme-checkpoints/training" }

  active_deadline    = "48h" # counts the time the run waits in the queue too
  ttl_after_finished = "72h"
}

# The research team's MIG experiment on one 1g.10gb slice of an A100 80GB.
resource "mlplatform_training_job_template" "mig_experiment" {
  namespace       = mlplatform_team.team["research"].namespace
  name            = "mig-experiment"
  queue           = "training"
  priority_class  = mlplatform_workload_priority_class.experiment.name
  service_account = mlplatform_team.team["research"].workflow_service_account
  billing         = merge(mlplatform_team.team["research"].pod_labels, { "mlplatform.io/project" = "mig-study" })

  image           = "ghcr.io/acme/research:0.3"
  command         = ["python", "-m", "experiments.small"]
  hyperparameters = { seed = "42" }

  hardware = {
    gpu_type  = "a100-1g.10gb"
    cpu_cores = 1
    memory_gb = 16
  }
}

# Nightly retraining of the sentiment model on the latest dataset, on weekdays at 02:00 Berlin
# time; a run still going (or queued) when the next is due makes that one skip.
resource "mlplatform_training_schedule" "nightly_sentiment" {
  namespace  = mlplatform_team.team["nlp"].namespace
  name       = "nightly-sentiment"
  template   = mlplatform_training_job_template.sentiment.name
  schedules  = ["0 2 * * 1-5"]
  timezone   = "Europe/Berlin"
  parameters = { dataset_version = "latest" }
}

# --- The bill ---------------------------------------------------------------------------------
# Recording rules for GPUs in use, GPU-hours and their cost per team, project, pool and capacity
# type (from the pools' own prices), and alerts on GPUs and queues, for the Prometheus of a
# kube-prometheus-stack in namespace "monitoring"; and a Grafana dashboard of those series that
# its Grafana's sidecar loads.
resource "mlplatform_gpu_billing_rules" "gpu" {
  name = "gpu-billing"
  pools = {
    for pool in [mlplatform_gpu_node_pool.a100, mlplatform_gpu_node_pool.a100_mig, mlplatform_gpu_node_pool.h100] :
    pool.name => pool.supplies
  }
  # A production run waits for quota at most 30 minutes; research may wait 2 hours.
  admission_wait_slo           = "30m"
  admission_wait_slo_per_queue = { research = "2h" }
}

resource "mlplatform_gpu_dashboard" "gpu" {
  folder = "ML platform"
}

output "submit_commands" {
  description = "The command an ML engineer runs to submit each template with its default parameters."
  value = {
    for t in [mlplatform_training_job_template.sentiment, mlplatform_training_job_template.mig_experiment] :
    "${t.namespace}/${t.name}" => t.submit_command
  }
}

output "supplies" {
  description = "What each GPU pool can supply at most, per capacity type."
  value = {
    for name, s in local.supplies : name => s.resources
  }
}

output "queues" {
  description = "Each team's ClusterQueue, whether Kueue reports it Active, its LocalQueues and its pods' billing labels."
  value = {
    for team, q in mlplatform_cluster_queue.team : team => {
      cluster_queue = q.name
      active        = q.active
      local_queues  = [for lq in mlplatform_team.team[team].local_queue_names : "${mlplatform_team.team[team].namespace}/${lq}"]
      pod_labels    = mlplatform_team.team[team].pod_labels
    }
  }
}
