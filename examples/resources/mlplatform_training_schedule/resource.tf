# Nightly retraining of the nlp team's sentiment model on the latest dataset, at 02:00 Berlin
# time on weekdays. A run that is still going (or still queued in Kueue) when the next one is
# due makes that one skip (Forbid). The runs' pods are the template's: queued, billed and
# retried after interruptions as it says.
resource "mlplatform_training_schedule" "nightly_sentiment" {
  namespace = "nlp"
  name      = "nightly-sentiment"
  template  = mlplatform_training_job_template.sentiment.name

  schedules          = ["0 2 * * 1-5"]
  timezone           = "Europe/Berlin"
  concurrency_policy = "Forbid"
  starting_deadline  = "1h" # a run missed while the controller was down may start up to 1h late

  parameters = {
    dataset_version = "latest"
  }

  successful_jobs_history_limit = 3
  failed_jobs_history_limit     = 1
  suspend                       = false
}
