# Import by <namespace>/<name>.
terraform import mlplatform_local_queue.research research/training
