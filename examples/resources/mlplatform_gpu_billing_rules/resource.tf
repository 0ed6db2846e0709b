# GPU-hours and their cost per team, from the pools' own prices, and GPU and queue alerts.
resource "mlplatform_gpu_billing_rules" "gpu" {
  name = "gpu-billing"
  pools = {
    (mlplatform_gpu_node_pool.a100.name) = mlplatform_gpu_node_pool.a100.supplies
    (mlplatform_gpu_node_pool.h100.name) = mlplatform_gpu_node_pool.h100.supplies
  }
  # What kube-prometheus-stack, installed as "monitoring", selects rules by.
  labels = { release = "monitoring" }

  admission_wait_slo           = "15m"
  admission_wait_slo_per_queue = { research = "2h" }
  alert_labels                 = { severity = "warning", team = "ml-platform" }
}
