# A ProvisioningRequestConfig is cluster-scoped: import it by name.
terraform import mlplatform_provisioning_request_config.gpu gpu-capacity
