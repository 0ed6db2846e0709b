# The queue ML engineers of the research team submit to, with the job label
# kueue.x-k8s.io/queue-name: training. The namespace must exist.
resource "mlplatform_local_queue" "research" {
  namespace     = "research"
  name          = "training"
  cluster_queue = mlplatform_cluster_queue.research.name
}
