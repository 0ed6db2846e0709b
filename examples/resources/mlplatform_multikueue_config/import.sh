# A MultiKueueConfig is cluster-scoped: import it by name.
terraform import mlplatform_multikueue_config.workers training-workers
