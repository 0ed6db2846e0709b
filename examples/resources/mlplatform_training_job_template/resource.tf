# The nlp team's sentiment model: one 1g.10gb MIG slice of an A100 80GB on spot (the team's queue
# gives slices), resuming from its last checkpoint after a preemption or a spot reclaim. ML
# engineers submit runs with the command in submit_command,
# e.g. `argo submit --from workflowtemplate/sentiment-model -n nlp -p learning_rate=1e-4`.
resource "mlplatform_training_job_template" "sentiment" {
  namespace      = mlplatform_team.nlp.namespace
  name           = "sentiment-model"
  queue          = mlplatform_team.nlp.local_queue_names[0]
  priority_class = mlplatform_workload_priority_class.experiment.name
  # The team's billing labels (mlplatform.io/team, mlplatform.io/cost-centre) and the project label
  # the team requires of every pod (project_label, mlplatform.io/project by default).
  billing = merge(mlplatform_team.nlp.pod_labels, { (mlplatform_team.nlp.project_label) = "sentiment" })

  source = {
    git_repo               = "git@github.com:acme/models.git"
    revision               = "main"
    ssh_private_key_secret = { name = "models-deploy-key", key = "ssh-privatekey" }
  }
  image           = "ghcr.io/acme/sentiment-trainer:1.4.0"
  training_script = "train.py"
  args            = ["--epochs=3"]
  env             = { HF_HOME = "/cache/huggingface" }
  dataset_version = "2024-06"
  hyperparameters = {
    learning_rate = "3e-4"
    batch_size    = "32"
  }

  hardware = {
    gpu_type    = "a100-1g.10gb"
    gpu_count   = 1
    cpu_cores   = 4
    memory_gb   = 32
    shm_size_gb = 8
  }
  capacity = "spot"

  checkpoint = {
    uri = "s3://acme-checkpoints/training"
  }
  retry = {
    limit   = 10
    backoff = "30s"
  }
  tracking = {
    uri        = "http://mlflow.mlflow.svc:5000"
    experiment = "sentiment"
  }
  volumes = [{ claim_name = "imdb-reviews", mount_path = "/data/imdb" }]

  active_deadline    = "48h" # counts the time the run waits in the queue too
  ttl_after_finished = "72h"
  pod_gc             = "OnPodSuccess" # keeps failed pods for debugging
}

# A MIG experiment of the research team on one 1g.10gb slice of an A100 80GB.
resource "mlplatform_training_job_template" "mig_experiment" {
  namespace = "research"
  name      = "mig-experiment"
  queue     = mlplatform_local_queue.research.name
  billing   = { "mlplatform.io/team" = "research", "mlplatform.io/project" = "small-experiments" }

  image   = "ghcr.io/acme/research:0.3"
  command = ["python", "-m", "experiments.small"]

  hardware = {
    gpu_type  = "a100-1g.10gb"
    cpu_cores = 2
    memory_gb = 16
  }
}

output "submit_sentiment" {
  value = mlplatform_training_job_template.sentiment.submit_command
}
