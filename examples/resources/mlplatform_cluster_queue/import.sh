# A ClusterQueue is cluster-scoped: import it by name.
terraform import mlplatform_cluster_queue.research research
