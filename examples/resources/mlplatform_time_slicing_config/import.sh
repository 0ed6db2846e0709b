# Import by <namespace>/<name>.
terraform import mlplatform_time_slicing_config.this gpu-operator/time-slicing-config
