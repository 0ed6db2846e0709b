# A100 80GB nodes (p4de.24xlarge, 8 GPUs each) sliced all-1g.10gb: up to 16 GPUs on on-demand
# nodes for critical work and 32 on spot nodes for training that checkpoints. Each capacity type
# becomes its own Karpenter NodePool; the mixed MIG layout also writes a NodeOverlay so that
# Karpenter knows the nodes expose nvidia.com/mig-1g.10gb (Karpenter's NodeOverlay feature gate
# must be on).
resource "mlplatform_gpu_node_pool" "a100" {
  name       = "a100-80gb"
  node_class = mlplatform_node_class.gpu.name

  gpu = {
    model          = "a100-80gb"
    instance_types = ["p4de.24xlarge"]
  }
  mig = {
    strategy = "mixed"
    config   = "all-1g.10gb"
  }

  # Prices: on-demand from the price table for the provider's pricing_region (or set
  # on_demand.price_per_hour); spot has no table, so give a price or a discount, else its
  # hourly_price is null.
  on_demand = { max_gpus = 16 }
  spot      = { max_gpus = 32, discount = 0.6 }

  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
  }
  # Node labels, and EC2 tags through the pool's own copy of the node class (EC2NodeClass
  # "a100-80gb"), which adds them to the node class's tags.
  billing = { project = "fine-tuning" }
}

# Whole H100s (p5.48xlarge) on capacity already paid for: an On-Demand Capacity Reservation or a
# Capacity Block for ML that the node class's capacity_reservation_selector selects. Karpenter
# tries this NodePool first (weight 30); it is priced like on-demand unless price_per_hour gives
# a Capacity Block's price per instance.
resource "mlplatform_gpu_node_pool" "h100" {
  name       = "h100"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "h100", instance_types = ["p5.48xlarge"] }
  reserved   = { max_gpus = 16 }
  # Drift or expiry waits a day for a node's training pods before draining it.
  termination_grace_period = "24h"
}

# L40S nodes with 4 GPUs, chosen by requirements instead of by name: every such size of generation 6
# or later (g6e.12xlarge and g6e.24xlarge today) and any AWS adds later. The NodePool requires
# Karpenter's labels: instance-gpu-name l40s and instance-gpu-memory 45776 (the model),
# instance-generation Gt 5 and instance-gpu-count 4. count_per_node (4) and supplies are computed at
# plan from the catalog's instance types that match.
resource "mlplatform_gpu_node_pool" "l40s" {
  name       = "l40s"
  node_class = mlplatform_node_class.gpu.name
  gpu = {
    model                 = "l40s"
    instance_requirements = { min_generation = 6, gpu_counts = [4] }
  }
  time_slicing = { replicas = 4 }
  spot         = { max_gpus = 16, discount = 0.6 }
}

# A Kueue flavor for the spot nodes, fed from what the pool supplies (known at plan time).
resource "mlplatform_resource_flavor" "a100_spot" {
  name        = "a100-1g10gb-spot"
  node_labels = mlplatform_gpu_node_pool.a100.supplies["spot"].node_labels
  node_taints = mlplatform_gpu_node_pool.a100.supplies["spot"].taints
  tolerations = mlplatform_gpu_node_pool.a100.supplies["spot"].tolerations
}

# The most a team's quota can cost per hour, computed at plan: the quota in units of a resource
# times supplies[...].hourly_price, the price of one unit. A 1g.10gb slice of a p4de.24xlarge
# under all-1g.10gb costs 1/7 of a GPU, i.e. 27.44705 / 8 / 7 = 0.49 USD on-demand in us-east-1
# and 0.196 on spot at 60% off.
locals {
  nlp_slices = { nominal = 28, borrowing_limit = 14 } # nvidia.com/mig-1g.10gb on spot
  spot_slice = mlplatform_gpu_node_pool.a100.supplies["spot"].hourly_price["nvidia.com/mig-1g.10gb"]
}

resource "mlplatform_cluster_queue" "nlp" {
  name               = "nlp"
  cohort             = mlplatform_cohort.training.name # borrowing needs a cohort to borrow from
  namespace_selector = { match_labels = { "mlplatform.io/team" = "nlp" } }

  resource_group {
    # Kueue admits a pod only when the queue covers every resource it requests.
    covered_resources = ["nvidia.com/mig-1g.10gb", "cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.a100_spot.name
      resource {
        name            = "nvidia.com/mig-1g.10gb"
        nominal_quota   = tostring(local.nlp_slices.nominal)
        borrowing_limit = tostring(local.nlp_slices.borrowing_limit)
      }
      # The CPU and memory of 4 GPUs' share of p4de.24xlarge nodes (96 vCPUs, 1152 GiB for 8).
      resource {
        name          = "cpu"
        nominal_quota = "48"
      }
      resource {
        name          = "memory"
        nominal_quota = "576Gi"
      }
    }
  }
}

output "nlp_max_usd_per_hour" {
  description = "What the nlp team's quota costs per hour at most, borrowing included."
  value       = (local.nlp_slices.nominal + local.nlp_slices.borrowing_limit) * local.spot_slice
}

# NVIDIA's p4de-half-balanced: GPUs 0-3 of each node split all-balanced (2 x 1g.10gb, 2g.20gb and
# 3g.40gb each), GPUs 4-7 whole. supplies[*].per_node counts each part (4 nvidia.com/gpu, 8
# 1g.10gb, 4 2g.20gb, 4 3g.40gb per node); per_gpu is null. The nodes' label
# nvidia.com/mig.config is mig.config_name, which a mlplatform_mig_config defines with the same
# entries (see its example).
resource "mlplatform_gpu_node_pool" "half" {
  name       = "a100-half-balanced"
  node_class = mlplatform_node_class.gpu.name
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  mig = { parts = [
    { devices = [0, 1, 2, 3], config = "all-balanced" },
    { devices = [4, 5, 6, 7], config = "all-disabled" },
  ] }
  on_demand = { max_gpus = 16 }
}
