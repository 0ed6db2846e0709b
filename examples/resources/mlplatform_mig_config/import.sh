# Import by <namespace>/<name>.
terraform import mlplatform_mig_config.this gpu-operator/custom-mig-config
