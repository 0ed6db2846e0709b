# On the manager cluster: a worker cluster MultiKueue dispatches to. The kubeconfig (a service
# account token of the worker, its CA as data) goes into a Secret in Kueue's namespace that this
# resource writes and owns.
variable "worker_a_kubeconfig" {
  type      = string
  sensitive = true
}

resource "mlplatform_multikueue_cluster" "worker_a" {
  name       = "worker-a"
  kubeconfig = var.worker_a_kubeconfig
}

# Or a Secret something else writes (e.g. an ExternalSecret), key "kubeconfig": only named.
resource "mlplatform_multikueue_cluster" "worker_b" {
  name              = "worker-b"
  kubeconfig_secret = "worker-b-kubeconfig"
}
