# A WorkloadPriorityClass is cluster-scoped: import it by name.
terraform import mlplatform_workload_priority_class.production production
