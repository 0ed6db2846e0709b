data "mlplatform_cluster_queue" "research" {
  name = "research"
}

output "research_gpus_in_use" {
  # GPUs in use per flavor, e.g. { "a100-80gb-on-demand" = "12" }
  value = {
    for f in data.mlplatform_cluster_queue.research.flavors_usage :
    f.name => one([for r in f.resources : r.total if r.name == "nvidia.com/gpu"])
  }
}

output "research_queue" {
  value = {
    active   = data.mlplatform_cluster_queue.research.active
    pending  = data.mlplatform_cluster_queue.research.pending_workloads
    admitted = data.mlplatform_cluster_queue.research.admitted_workloads
  }
}
