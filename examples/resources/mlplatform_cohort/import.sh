# A Cohort is cluster-scoped: import it by name.
terraform import mlplatform_cohort.training training
