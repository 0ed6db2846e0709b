# Plan-only runs of a MultiKueue topology: a worker's output multikueue_worker, and a manager
# built from two such workers (its quotas the workers' summed, no GPU nodes, the admission check
# on every team's queue, the simulator's caveat), and what the manager refuses at plan. Nothing is
# written to the cluster. Run by internal/moduletest, or by hand as tests/plan.tftest.hcl.

variables {
  cluster_name = "test"
  preflight    = { enabled = false }
  gpu_pools = {
    a100 = {
      model     = "a100-80gb", instance_types = ["p4de.24xlarge"]
      on_demand = { max_gpus = 8, price_per_hour = 32 }
      spot      = { max_gpus = 16, price_per_hour = 16 }
    }
    a100-mig = {
      model = "a100-80gb", instance_types = ["p4de.24xlarge"]
      mig   = { config = "all-1g.10gb" }
      spot  = { max_gpus = 8, price_per_hour = 16 }
    }
  }
  teams = {
    alpha = { gpus = { a100 = { on_demand = 4, spot = 8, borrowing_limit = 2 }, a100-mig = { spot = 4 } } }
    beta  = { local_queues = ["training", "sweeps"], gpus = { a100 = { on_demand = 4, spot = 8 }, a100-mig = { spot = 4 } } }
  }
}

run "worker" {
  command = plan

  assert {
    condition     = output.multikueue_worker.teams.beta.local_queues == tolist(["training", "sweeps"]) && output.multikueue_worker.teams.alpha.namespace == "alpha"
    error_message = "A worker's multikueue_worker should name each team's namespace and LocalQueues."
  }
  assert {
    condition     = keys(output.multikueue_worker.flavors) == ["a100-mig-spot", "a100-on-demand", "a100-spot"]
    error_message = "A worker's multikueue_worker should list its flavors: ${jsonencode(keys(output.multikueue_worker.flavors))}."
  }
  assert {
    condition     = output.multikueue == null
    error_message = "A worker is no manager."
  }
}

run "manager" {
  command = plan

  variables {
    cluster_name = "manager"
    gpu_pools    = {}
    teams = {
      alpha = {
        simulation = {
          jobs_per_day = 4
          shapes       = [{ gpu_type = "a100-80gb", gpus = 2 }]
          duration     = { distribution = "fixed", mean = "1h" }
        }
      }
      beta = { local_queues = ["training", "sweeps"] }
    }
    multikueue = {
      worker_lost_timeout = "5m"
      workers = {
        east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" }
        west = { platform = run.worker.multikueue_worker, kubeconfig_secret = "west-kubeconfig" }
      }
    }
  }

  assert {
    condition     = length(mlplatform_gpu_node_pool.this) == 0 && length(mlplatform_node_class.this) == 0
    error_message = "A manager runs no GPU nodes."
  }
  assert {
    condition     = output.quotas.alpha["a100-on-demand"].gpus == 8 && output.quotas.alpha["a100-spot"].gpus == 16 && output.quotas.alpha["a100-on-demand"].borrowing_limit == 4 && output.quotas.beta["a100-on-demand"].borrowing_limit == null
    error_message = "The manager's quotas should be the workers' summed (alpha: 8 on-demand, 16 spot, borrowing 4; beta's limit none): ${jsonencode(output.quotas)}."
  }
  assert {
    condition     = output.quotas.alpha["a100-mig-spot"].resources["nvidia.com/mig-1g.10gb"].nominal_quota == "56"
    error_message = "alpha's 8 sliced GPUs over the two workers should be 56 MIG 1g.10gb instances."
  }
  assert {
    condition     = alltrue([for q in mlplatform_cluster_queue.team : [for c in q.admission_checks_strategy : c.name] == ["multikueue"]])
    error_message = "Every team's ClusterQueue on the manager should apply the multikueue admission check."
  }
  assert {
    condition     = mlplatform_multikueue_config.this[0].clusters == tolist(["east", "west"]) && mlplatform_admission_check.multikueue[0].parameters.name == "multikueue"
    error_message = "The MultiKueueConfig should list both workers, and the admission check name it."
  }
  assert {
    condition     = mlplatform_resource_flavor.this["a100-spot"].node_labels == run.worker.multikueue_worker.flavors["a100-spot"]
    error_message = "The manager's flavors should select the workers' nodes."
  }
  assert {
    condition     = yamldecode(output.kueue_configuration).multiKueue.workerLostTimeout == "5m"
    error_message = "The manager's Kueue configuration should carry worker_lost_timeout."
  }
  assert {
    condition     = anytrue([for c in output.simulation.caveats : startswith(c, "MultiKueue manager:")])
    error_message = "On a manager, the simulation should say that it sums the workers."
  }
}

run "manager_refuses_a_worker_without_a_team_or_flavor" {
  command = plan

  variables {
    gpu_pools = {}
    teams     = { alpha = {}, beta = { local_queues = ["training", "sweeps"] } }
    multikueue = {
      workers = {
        east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" }
        west = {
          platform = merge(run.worker.multikueue_worker, {
            teams   = { alpha = run.worker.multikueue_worker.teams.alpha }
            flavors = { for f, l in run.worker.multikueue_worker.flavors : f => l if f != "a100-spot" }
          })
          kubeconfig_secret = "west-kubeconfig"
        }
      }
    }
  }

  expect_failures = [mlplatform_multikueue_cluster.worker["west"]]
}

run "manager_refuses_own_gpus" {
  command = plan

  variables {
    teams = { alpha = { gpus = { a100 = { on_demand = 1 } } }, beta = {} }
    multikueue = {
      workers = { east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" } }
    }
  }

  expect_failures = [mlplatform_cohort.this]
}

run "manager_refuses_a_kubeconfig_of_no_worker" {
  command = plan

  variables {
    gpu_pools              = {}
    teams                  = { alpha = {}, beta = { local_queues = ["training", "sweeps"] } }
    multikueue             = { workers = { east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" } } }
    multikueue_kubeconfigs = { north = "not read" }
  }

  expect_failures = [mlplatform_multikueue_config.this]
}

run "manager_refuses_a_worker_whose_flavor_selects_other_nodes" {
  command = plan

  variables {
    gpu_pools = {}
    teams     = { alpha = {}, beta = { local_queues = ["training", "sweeps"] } }
    multikueue = {
      workers = {
        east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" }
        west = {
          platform = merge(run.worker.multikueue_worker, {
            flavors = merge(run.worker.multikueue_worker.flavors, { a100-spot = merge(run.worker.multikueue_worker.flavors["a100-spot"], { "karpenter.k8s.aws/instance-gpu-name" = "h100" }) })
          })
          kubeconfig_secret = "west-kubeconfig"
        }
      }
    }
  }

  expect_failures = [mlplatform_multikueue_cluster.worker["west"]]
}

run "worker_lost_timeout_not_a_duration_refused" {
  command = plan

  variables {
    gpu_pools  = {}
    multikueue = { worker_lost_timeout = "", workers = { east = { platform = run.worker.multikueue_worker, kubeconfig_secret = "east-kubeconfig" } } }
  }

  expect_failures = [var.multikueue]
}

run "manager_without_workers_refused" {
  command = plan

  variables {
    gpu_pools  = {}
    teams      = { alpha = {}, beta = { local_queues = ["training", "sweeps"] } }
    multikueue = { workers = {} }
  }

  expect_failures = [var.multikueue]
}

run "worker_platform_not_the_module_output_refused" {
  command = plan

  variables {
    gpu_pools  = {}
    teams      = { alpha = {}, beta = { local_queues = ["training", "sweeps"] } }
    multikueue = { workers = { east = { platform = { teams = {} }, kubeconfig_secret = "east-kubeconfig" } } }
  }

  expect_failures = [var.multikueue]
}
