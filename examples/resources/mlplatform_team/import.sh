# Import by <namespace>/<name>. The import takes the team's namespace, access objects, admission
# policy, workflow service account and the LocalQueues in the namespace that no other resource owns.
terraform import mlplatform_team.nlp nlp/nlp
