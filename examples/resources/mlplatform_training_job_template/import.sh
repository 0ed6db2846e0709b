# Import by <namespace>/<name>. Billing labels are read back as the pod labels that are neither
# the WorkflowTemplate's own labels nor Kueue's.
terraform import mlplatform_training_job_template.sentiment nlp/sentiment-model
