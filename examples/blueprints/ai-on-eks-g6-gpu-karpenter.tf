# awslabs/ai-on-eks@41a979ee (2025-04-03), infra/base/terraform/addons.tf: the
# karpenter_resources_helm_config "g6-gpu-karpenter", rendered by the karpenter-resources chart of
# aws-ia/terraform-aws-eks-data-addons@v1.36.0 (e560098d, the module version it pins), with the
# cluster demo, its node role KarpenterNodeRole-demo and
# private_subnets[2] = subnet-0123456789abcdef0.
resource "mlplatform_node_class" "g6_gpu" {
  name                    = "g6-gpu-karpenter"
  ami_family              = "Bottlerocket"
  ami_selector            = [{ alias = "bottlerocket@latest" }]
  role                    = "KarpenterNodeRole-demo"
  subnet_selector         = [{ id = "subnet-0123456789abcdef0" }]
  security_group_selector = [{ tags = { Name = "demo-node" } }]
  tags                    = { Name = "karpenter-g6-gpu-karpenter" }
  metadata_options = {
    http_endpoint               = "enabled"
    http_protocol_ipv6          = "disabled"
    http_put_response_hop_limit = 2
    http_tokens                 = "required"
  }
  block_device = [
    { device_name = "/dev/xvda", volume_size = "50Gi", volume_type = "gp3", encrypted = true },
  ]
  detailed_monitoring   = true
  instance_store_policy = "RAID0"
}

resource "mlplatform_gpu_node_pool" "g6_gpu" {
  name       = "g6-gpu-karpenter"
  node_class = mlplatform_node_class.g6_gpu.name
  gpu = {
    model = "l4"
    instance_types = [
      "g6.2xlarge", "g6.4xlarge", "g6.8xlarge", "g6.12xlarge",
      "g6.16xlarge", "g6.24xlarge", "g6.48xlarge",
    ]
  }
  spot      = { max_cpu = "1000", max_memory = "1000Gi", weight = 100 }
  on_demand = { max_cpu = "1000", max_memory = "1000Gi", weight = 100 }
  node_labels = {
    NodePool      = "g6-gpu-karpenter"
    NodeGroupType = "g6-gpu-karpenter"
    instanceType  = "g6-gpu-karpenter"
    type          = "karpenter"
    gpuType       = "l4"
  }
  taints                   = [{ key = "nvidia.com/gpu", value = "Exists", effect = "NoSchedule" }]
  expire_after             = "720h"
  termination_grace_period = "48h"
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "300s"
    budgets              = [{ nodes = "10%" }]
  }
}
