# aws-samples/karpenter-blueprints@529b88cf (2026-06-08), blueprints/static-nodepool:
# static-nodeclass.yaml and static-nodepool.yaml, with <<CLUSTER_NAME>> = demo.
resource "mlplatform_node_class" "gpu_static" {
  name                    = "gpu-static"
  role                    = "KarpenterNodeRole-demo"
  ami_selector            = [{ alias = "bottlerocket@latest" }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  network_interfaces = [
    { network_card_index = 0, device_index = 0, interface_type = "interface" },
    { network_card_index = 0, device_index = 1, interface_type = "efa-only" },
  ]
  instance_store_policy = "RAID0"
}

resource "mlplatform_gpu_node_pool" "gpu_static" {
  name       = "gpu-static"
  node_class = mlplatform_node_class.gpu_static.name
  gpu        = { model = "l40s", instance_types = ["g6e.8xlarge"] }
  on_demand  = { nodes = 1 }
  node_labels = {
    "capacity-type"                 = "gpu-static"
    "nvidia.com/gpu.present"        = "true"
    "vpc.amazonaws.com/efa.present" = "true"
  }
  taints       = [{ key = "nvidia.com/gpu", effect = "NoSchedule" }]
  expire_after = "Never"
}
