# An AdmissionCheck is cluster-scoped: import it by name.
terraform import mlplatform_admission_check.gpu_capacity gpu-capacity
