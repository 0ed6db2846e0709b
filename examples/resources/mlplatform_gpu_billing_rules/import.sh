# Import by <namespace>/<name>.
terraform import mlplatform_gpu_billing_rules.gpu monitoring/gpu-billing
