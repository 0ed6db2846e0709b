# Apply runs against a real API server with Kueue's controller manager: the platform is created
# (with its billing rules and dashboard), Kueue turns every team's queue Active, then a pool and a
# quota grow in place; terraform test destroys it all at the end. Names carry var.run_id (digits,
# which Terraform and OpenTofu read alike), so runs on a shared cluster never collide. Run by
# internal/moduletest (go test with TF_ACC=1), which also checks that a second apply of
# examples/complete is a no-op; by hand, with KUBE_CONFIG_PATHS set:
#   terraform test -filter=tests/apply.tftest.hcl -var run_id=12345

variables {
  cluster_name = "test"
  cohort_name  = "mt-${var.run_id}"
  node_class   = { name = "mt-${var.run_id}" }
  gpu_pools = {
    "mt-${var.run_id}-a100" = {
      model     = "a100-80gb", instance_types = ["p4de.24xlarge"]
      on_demand = { max_gpus = 8 }
      spot      = { max_gpus = 8, discount = 0.6 }
    }
    "mt-${var.run_id}-mig" = {
      model = "a100-80gb", instance_types = ["p4de.24xlarge"]
      mig   = { config = "all-1g.10gb" }
      spot  = { max_gpus = 8, discount = 0.6 }
    }
  }
  priorities = {
    "mt-${var.run_id}-production" = { value = 1000, description = "Admitted first." }
  }
  teams = {
    "mt-${var.run_id}-alpha" = {
      cost_centre = "cc-1"
      gpus = {
        "mt-${var.run_id}-a100" = { on_demand = 4, spot = 4, borrowing_limit = 2 }
        "mt-${var.run_id}-mig"  = { spot = 5 }
      }
      training_templates = {
        train = {
          image     = "ghcr.io/acme/trainer:1", training_script = "train.py", capacity = "spot"
          priority  = "mt-${var.run_id}-production", project = "llm"
          hardware  = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
          schedules = { nightly = { cron = ["0 2 * * *"], timezone = "UTC" } }
        }
      }
    }
    "mt-${var.run_id}-beta" = {
      gpus = {
        "mt-${var.run_id}-a100" = { on_demand = 4, spot = 4 }
        "mt-${var.run_id}-mig"  = { spot = 3 }
      }
    }
  }
  billing = {
    namespace = "mt-${var.run_id}-alpha"
    rules     = { name = "mt-${var.run_id}", admission_wait_slo_per_team = { "mt-${var.run_id}-alpha" = "2h" } }
    dashboard = {}
  }
}

run "create" {
  assert {
    condition     = length(output.queues) == 2 && alltrue([for q in output.queues : q.active])
    error_message = "Kueue should report every team's ClusterQueue Active: ${jsonencode({ for t, q in output.queues : t => q.active })}."
  }
  assert {
    condition     = output.queues["mt-${var.run_id}-alpha"].local_queues == ["mt-${var.run_id}-alpha/training"]
    error_message = "The team should have its LocalQueue training in its namespace."
  }
  assert {
    condition     = startswith(output.submit_commands["mt-${var.run_id}-alpha/train"], "argo submit --from workflowtemplate/train -n mt-${var.run_id}-alpha")
    error_message = "The template's submit command should be an output."
  }
  assert {
    condition     = mlplatform_training_schedule.this["mt-${var.run_id}-alpha/nightly"].uid != ""
    error_message = "The schedule should be written."
  }
  assert {
    condition     = output.billing == { rules = "mt-${var.run_id}-alpha/mt-${var.run_id}", dashboard = "mt-${var.run_id}-alpha/mlplatform-gpu" }
    error_message = "The billing rules and the dashboard should be written into billing.namespace: ${jsonencode(output.billing)}."
  }
  assert {
    condition     = strcontains(mlplatform_gpu_billing_rules.this[0].rules, "mt-${var.run_id}-mig")
    error_message = "The billing rules should price the sliced pool."
  }
  assert {
    condition     = output.quotas["mt-${var.run_id}-alpha"]["mt-${var.run_id}-mig-spot"].resources["nvidia.com/mig-1g.10gb"].nominal_quota == "35"
    error_message = "alpha's 5 sliced GPUs should be 35 MIG instances."
  }
}

# A pool grows and a team's quota with it: both change in place, and Kueue keeps the queue Active.
run "grow_a_pool" {
  variables {
    gpu_pools = {
      "mt-${var.run_id}-a100" = {
        model     = "a100-80gb", instance_types = ["p4de.24xlarge"]
        on_demand = { max_gpus = 8 }
        spot      = { max_gpus = 16, discount = 0.6 }
      }
      "mt-${var.run_id}-mig" = {
        model = "a100-80gb", instance_types = ["p4de.24xlarge"]
        mig   = { config = "all-1g.10gb" }
        spot  = { max_gpus = 8, discount = 0.6 }
      }
    }
    teams = {
      "mt-${var.run_id}-alpha" = {
        cost_centre = "cc-1"
        gpus = {
          "mt-${var.run_id}-a100" = { on_demand = 4, spot = 12, borrowing_limit = 2 }
          "mt-${var.run_id}-mig"  = { spot = 5 }
        }
        training_templates = {
          train = {
            image     = "ghcr.io/acme/trainer:1", training_script = "train.py", capacity = "spot"
            priority  = "mt-${var.run_id}-production", project = "llm"
            hardware  = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
            schedules = { nightly = { cron = ["0 2 * * *"], timezone = "UTC" } }
          }
        }
      }
      "mt-${var.run_id}-beta" = {
        gpus = {
          "mt-${var.run_id}-a100" = { on_demand = 4, spot = 4 }
          "mt-${var.run_id}-mig"  = { spot = 3 }
        }
      }
    }
  }

  assert {
    condition     = output.supplies["mt-${var.run_id}-a100"]["spot"].resources["nvidia.com/gpu"] == 16
    error_message = "The pool should supply 16 spot GPUs."
  }
  assert {
    condition = {
      for r in mlplatform_cluster_queue.team["mt-${var.run_id}-alpha"].resource_group[0].flavor[1].resource : r.name => r.nominal_quota
    } == { "nvidia.com/gpu" = "12", "nvidia.com/mig-1g.10gb" = "0", cpu = "143532m", memory = "1624068Mi" }
    error_message = "alpha's queue should hold 12 spot A100s with their CPU and memory."
  }
  assert {
    condition     = alltrue([for q in output.queues : q.active])
    error_message = "Kueue should keep every queue Active after the change."
  }
}
