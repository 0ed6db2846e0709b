# A MultiKueueCluster is cluster-scoped: import it by name. Its Secret is then referenced
# (kubeconfig_secret), not adopted.
terraform import mlplatform_multikueue_cluster.worker_a worker-a
