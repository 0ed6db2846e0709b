# On-demand A100 80GB nodes, sliced all-1g.10gb by the MIG manager.
resource "mlplatform_resource_flavor" "a100_on_demand" {
  name = "a100-80gb-on-demand"

  node_labels = {
    "nvidia.com/gpu.product"     = "NVIDIA-A100-SXM4-80GB"
    "nvidia.com/mig.config"      = "all-1g.10gb"
    "karpenter.sh/capacity-type" = "on-demand"
  }

  node_taints = [{
    key    = "nvidia.com/gpu"
    value  = "true"
    effect = "NoSchedule"
  }]

  # Added to the pods of workloads admitted to this flavor.
  tolerations = [{
    key      = "nvidia.com/gpu"
    operator = "Exists"
    effect   = "NoSchedule"
  }]

  labels = {
    team = "platform"
  }
}
