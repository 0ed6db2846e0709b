# The nlp team: its namespace "nlp" with billing labels, the LocalQueue "training" on its
# ClusterQueue, access for its engineers, and every pod required to name its project.
resource "mlplatform_team" "nlp" {
  name          = "nlp"
  cost_centre   = "cc-4102"
  local_queues  = { training = mlplatform_cluster_queue.nlp.name }
  member_groups = ["nlp-engineers"]
}

# A template of the team: its pods carry the team's billing labels and a project, and run as
# the team's workflow service account.
resource "mlplatform_training_job_template" "summarizer" {
  namespace       = mlplatform_team.nlp.namespace
  name            = "summarizer"
  queue           = mlplatform_team.nlp.local_queue_names[0]
  service_account = mlplatform_team.nlp.workflow_service_account
  billing         = merge(mlplatform_team.nlp.pod_labels, { "mlplatform.io/project" = "summarizer" })
  image           = "ghcr.io/acme/summarizer:0.9"
  training_script = "train.py"
  hardware        = { gpu_type = "a100-1g.10gb", cpu_cores = 2, memory_gb = 16 }
  # The team's queue gives spot capacity only: without a checkpoint, each spot reclaim would
  # restart a run from zero (a warning at plan).
  checkpoint = { uri = "s3://acme-checkpoints/summarizer" }
}
