# examples/multi-cluster applied to two clusters at once, each through its own provider alias:
# both get the platform, Kueue turns every queue Active on each, and each cluster's quotas follow
# its own pool sizes. Needs two clusters: internal/moduletest starts two local control planes and
# passes their kubeconfigs; by hand:
#   terraform test -filter=tests/multi_cluster.tftest.hcl \
#     -var 'staging_kubeconfig="/path/a"' -var 'production_kubeconfig="/path/b"'

run "two_clusters" {
  module {
    source = "../../examples/multi-cluster"
  }
  variables {
    staging_kubeconfig    = var.staging_kubeconfig
    production_kubeconfig = var.production_kubeconfig
  }

  assert {
    condition     = alltrue([for c in ["staging", "production"] : length(output.queues[c]) == 2 && alltrue([for q in output.queues[c] : q.active])])
    error_message = "Kueue should report both teams' queues Active on both clusters: ${jsonencode({ for c, qs in output.queues : c => { for t, q in qs : t => q.active } })}."
  }
  assert {
    condition     = output.quotas.staging.research["a100-spot"].gpus == 4 && output.quotas.production.research["a100-spot"].gpus == 24
    error_message = "Each cluster's quotas should follow its own pool sizes (4 and 24 spot A100s for research)."
  }
  assert {
    condition     = output.quotas.production.nlp["a100-mig-spot"].resources["nvidia.com/mig-1g.10gb"].nominal_quota == "28"
    error_message = "nlp's 4 sliced GPUs in production should be 28 MIG instances."
  }
}
