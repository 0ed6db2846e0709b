# aws/aws-eks-best-practices@dc0243ad (2026-05-04), latest/bpg/aiml/aiml_compute.adoc: the
# NodePools gpu-inference (section "Tailor Compute Capacity for ML workloads") and
# gpu-inference-spot (section "Scenario: Diversification for real time inference workloads"),
# on A10G instances (g5): the guide selects GPU instances by category, generation and GPU memory.
# Their EC2NodeClasses default and gpu-inference-ec2 are named, not shown.
resource "mlplatform_gpu_node_pool" "gpu_inference" {
  name       = "gpu-inference"
  node_class = "default"
  gpu        = { model = "a10g" }
  on_demand  = { max_gpus = 10, max_cpu = "1000", max_memory = "4000Gi" }
  taints     = [{ key = "nvidia.com/gpu", effect = "NoSchedule" }]
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "60m"
  }
  expire_after = "720h"
}

resource "mlplatform_gpu_node_pool" "gpu_inference_spot" {
  name         = "gpu-inference-spot"
  node_class   = "gpu-inference-ec2"
  gpu          = { model = "a10g" }
  spot         = { max_cpu = "100", max_memory = "100Gi" }
  node_labels  = { role = "gpu-spot-worker" }
  taints       = [{ key = "nvidia.com/gpu", effect = "NoSchedule" }]
  expire_after = "720h"
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
  }
}
