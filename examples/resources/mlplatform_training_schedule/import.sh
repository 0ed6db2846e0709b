# Import by <namespace>/<name>.
terraform import mlplatform_training_schedule.nightly_sentiment nlp/nightly-sentiment
