# The parameters of Kueue's ProvisioningRequest check: Cluster Autoscaler (not Karpenter) provisions
# the GPUs of each admitted workload, retried twice before the workload is deactivated.
resource "mlplatform_provisioning_request_config" "gpu" {
  name                    = "gpu-capacity"
  provisioning_class_name = "check-capacity.autoscaling.x-k8s.io"
  managed_resources       = ["nvidia.com/gpu"]
  retry_strategy = {
    backoff_limit_count  = 2
    backoff_base_seconds = 60
    backoff_max_seconds  = 1800
  }
}
