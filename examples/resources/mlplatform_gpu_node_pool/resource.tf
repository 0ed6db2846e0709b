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

  on_demand = { max_gpus = 16 }
  spot      = { max_gpus = 32 }

  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
  }
  # Node labels, and EC2 tags through the pool's own copy of the node class (EC2NodeClass
  # "a100-80gb"), which adds them to the node class's tags.
  billing = { project = "fine-tuning" }
}

# A Kueue flavor for the spot nodes, fed from what the pool supplies (known at plan time).
resource "mlplatform_resource_flavor" "a100_spot" {
  name        = "a100-1g10gb-spot"
  node_labels = mlplatform_gpu_node_pool.a100.supplies["spot"].node_labels
  node_taints = mlplatform_gpu_node_pool.a100.supplies["spot"].taints
  tolerations = mlplatform_gpu_node_pool.a100.supplies["spot"].tolerations
}
