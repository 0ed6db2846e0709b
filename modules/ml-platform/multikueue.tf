# MultiKueue: on a manager (var.multikueue set), every team's ClusterQueue applies a multikueue
# admission check, so that what it admits runs on one of the workers, clusters this module laid
# out too. Each worker's module output multikueue_worker tells the manager what it runs, which
# the checks below hold against what the manager's queues admit.

locals {
  manager = var.multikueue != null
  workers = local.manager ? { for w, x in var.multikueue.workers : w => x.platform } : {}
  # Every pool any worker runs, by key.
  worker_pools = sort(distinct(flatten([for w in local.workers : keys(w.pools)])))

  # What each worker lacks of what the manager's queues admit: a team's namespace or LocalQueue
  # (Kueue creates the run's Workload in the same namespace and LocalQueue on the worker), or a
  # flavor, or a flavor on other nodes than the other workers' (a run the manager admits on a
  # flavor could not run there).
  worker_gaps = { for w, p in local.workers : w => concat(
    flatten([for t, team in var.teams : (
      !contains(keys(p.teams), t) ? ["it has no team ${t}"] : concat(
        p.teams[t].namespace == coalesce(team.namespace, t) ? [] : ["team ${t}'s namespace is ${p.teams[t].namespace}, here ${coalesce(team.namespace, t)}"],
        [for q in team.local_queues : "team ${t} has no LocalQueue ${q}" if !contains(p.teams[t].local_queues, q)],
      )
    )]),
    [for f in local.flavor_order : "it has no flavor ${f} (no pool ${local.flavors[f].pool} with ${local.flavors[f].capacity_type} capacity)" if !contains(keys(p.flavors), f)],
    [for f in local.flavor_order : "flavor ${f} selects other nodes than on the other workers (${jsonencode(p.flavors[f])}, not ${jsonencode(local.supplies[local.flavors[f].pool][local.flavors[f].capacity_type].node_labels)}): give pool ${local.flavors[f].pool} the same model and sharing everywhere"
    if contains(keys(p.flavors), f) && try(p.flavors[f] != local.supplies[local.flavors[f].pool][local.flavors[f].capacity_type].node_labels, false)],
  ) }
}

resource "mlplatform_multikueue_cluster" "worker" {
  for_each = local.manager ? toset(keys(var.multikueue.workers)) : toset([])

  name              = each.key
  kubeconfig        = lookup(var.multikueue_kubeconfigs, each.key, null)
  kubeconfig_secret = var.multikueue.workers[each.key].kubeconfig_secret
  kueue_namespace   = var.multikueue.kueue_namespace

  lifecycle {
    precondition {
      condition     = length(local.worker_gaps[each.key]) == 0
      error_message = "multikueue.workers.${each.key}: the manager's queues admit what this worker cannot run: ${join("; ", local.worker_gaps[each.key])}. Apply the same teams and pools to it (its module's inputs), or leave it out."
    }
  }
}

resource "mlplatform_multikueue_config" "this" {
  count = local.manager ? 1 : 0

  name     = var.multikueue.name
  clusters = [for w in sort(keys(var.multikueue.workers)) : mlplatform_multikueue_cluster.worker[w].name]

  lifecycle {
    # The kubeconfigs' keys are workers' names, not secrets.
    precondition {
      condition     = length(setsubtract(nonsensitive(keys(var.multikueue_kubeconfigs)), keys(var.multikueue.workers))) == 0
      error_message = "multikueue_kubeconfigs: ${join(", ", setsubtract(nonsensitive(keys(var.multikueue_kubeconfigs)), keys(var.multikueue.workers)))} is not a worker of multikueue.workers (${join(", ", keys(var.multikueue.workers))})."
    }
  }
}

resource "mlplatform_admission_check" "multikueue" {
  count = local.manager ? 1 : 0

  name            = var.multikueue.name
  controller_name = "kueue.x-k8s.io/multikueue"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "MultiKueueConfig"
    name      = mlplatform_multikueue_config.this[0].name
  }
}
