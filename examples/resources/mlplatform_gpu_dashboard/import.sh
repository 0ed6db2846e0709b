# Import by <namespace>/<name>.
terraform import mlplatform_gpu_dashboard.this monitoring/mlplatform-gpu
