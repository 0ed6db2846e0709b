# Chosen per job with the label kueue.x-k8s.io/priority-class.
resource "mlplatform_workload_priority_class" "production" {
  name        = "production"
  value       = 1000
  description = "Production training runs: admitted first, may preempt experiments."
}

resource "mlplatform_workload_priority_class" "experiment" {
  name        = "experiment"
  value       = 100
  description = "Experiments and sweeps: checkpoint, since production runs may preempt them."
}
