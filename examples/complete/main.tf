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
