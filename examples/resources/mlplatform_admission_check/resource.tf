# Kueue's ProvisioningRequest check, for a cluster whose GPU nodes Cluster Autoscaler provisions.
# Karpenter serves no ProvisioningRequest: on mlplatform_gpu_node_pool nodes it would never pass.
resource "mlplatform_admission_check" "gpu_capacity" {
  name            = "gpu-capacity"
  controller_name = "kueue.x-k8s.io/provisioning-request"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "ProvisioningRequestConfig"
    name      = mlplatform_provisioning_request_config.gpu.name
  }
}
