# Plan-only runs: the arithmetic from whole GPUs to quotas and costs, and every refusal of a
# wrong input, each asserted with expect_failures on the variable or resource that must refuse
# (internal/moduletest checks that each validation block and precondition of the module fails a
# run here or in tests/multikueue.tftest.hcl that expects it).
# Nothing is written to the cluster. Run by internal/moduletest (go test with TF_ACC=1), or by
# hand: terraform init && terraform test -filter=tests/plan.tftest.hcl (KUBE_CONFIG_PATHS set).

# Prices are given per instance so that the expected costs are plain numbers: an A100 costs 4 USD
# an hour on-demand and 2 on spot (8 GPUs per p4de.24xlarge), an H100 10 on-demand.
variables {
  cluster_name = "test"
  # The preflight reads the cluster on every plan; these runs must make no API call.
  preflight = { enabled = false }
  gpu_pools = {
    a100 = {
      model     = "a100-80gb", instance_types = ["p4de.24xlarge"]
      on_demand = { max_gpus = 8, price_per_hour = 32 }
      spot      = { max_gpus = 16, price_per_hour = 16 }
    }
    a100-mig = {
      name = "a100-sliced", model = "a100-80gb", instance_types = ["p4de.24xlarge"]
      mig  = { config = "all-1g.10gb" }
      spot = { max_gpus = 8, price_per_hour = 16 }
    }
    h100 = {
      model     = "h100", instance_types = ["p5.48xlarge"]
      on_demand = { max_gpus = 8, price_per_hour = 80 }
    }
  }
  teams = {
    alpha = { gpus = {
      a100     = { on_demand = 4, spot = 8, borrowing_limit = 2 }
      a100-mig = { spot = 5 }
      h100     = { on_demand = 4, lending_limit = 1 }
    } }
    beta = { gpus = {
      a100     = { on_demand = 4, spot = 8 }
      a100-mig = { spot = 3 }
      h100     = { on_demand = 4, lending_limit = 10 }
    } }
  }
}

run "quotas_from_whole_gpus" {
  command = plan

  assert {
    condition     = mlplatform_cluster_queue.team["alpha"].resource_group[0].covered_resources == tolist(["nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "cpu", "memory"])
    error_message = "The queue should cover every GPU resource of the pools, then cpu and memory."
  }
  assert {
    condition     = [for f in mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor : f.name] == ["a100-on-demand", "a100-spot", "a100-mig-spot", "h100-on-demand"]
    error_message = "The queue should list a flavor per pool and capacity type, pools by key, on-demand before spot."
  }
  # 5 sliced GPUs are 35 MIG 1g.10gb instances, and 5 x what one GPU's share of a p4de.24xlarge
  # offers pods (Karpenter's allocatable 95690m and 1082712Mi over 8 GPUs), and no whole GPU.
  assert {
    condition = {
      for r in mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor[2].resource : r.name => r.nominal_quota
    } == { "nvidia.com/gpu" = "0", "nvidia.com/mig-1g.10gb" = "35", cpu = "59805m", memory = "676695Mi" }
    error_message = "alpha's 5 spot GPUs of the all-1g.10gb pool should be 35 nvidia.com/mig-1g.10gb, 59805m cpu and 676695Mi."
  }
  assert {
    condition     = output.quotas.beta["h100-on-demand"].resources["memory"].nominal_quota == "969204Mi" && output.quotas.beta["h100-on-demand"].resources["cpu"].nominal_quota == "95724m"
    error_message = "beta's 4 H100s should come with 4 x a p5.48xlarge's 191450m and 1938410Mi over 8: 95724m and 969204Mi."
  }
  # Borrowing limit 2 GPUs on both capacity types of the pool, with their CPU and memory.
  assert {
    condition = {
      for r in mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor[1].resource : r.name => r.borrowing_limit
    } == { "nvidia.com/gpu" = "2", "nvidia.com/mig-1g.10gb" = "0", cpu = "23922m", memory = "270678Mi" }
    error_message = "alpha's borrowing limit of 2 A100s should be 2 GPUs, 23922m cpu and 270678Mi on a100-spot."
  }
  assert {
    condition     = mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor[2].resource[1].borrowing_limit == null
    error_message = "Without a borrowing limit on a pool, the team may borrow without limit there."
  }
  # A lending limit is never above the quota: beta's 10 is 4.
  assert {
    condition     = output.quotas.alpha["h100-on-demand"].resources["nvidia.com/gpu"].lending_limit == "1" && output.quotas.beta["h100-on-demand"].resources["nvidia.com/gpu"].lending_limit == "4"
    error_message = "Lending limits should be the team's, capped at its quota."
  }
  assert {
    condition     = output.supplies["a100-mig"]["spot"].resources["nvidia.com/mig-1g.10gb"] == 56 && mlplatform_gpu_node_pool.this["a100-mig"].name == "a100-sliced"
    error_message = "The sliced pool should supply 56 MIG instances from 8 GPUs, under its own name."
  }
  assert {
    condition     = output.overcommit == {} && output.hourly_cost_ceiling.unpriced_flavors == []
    error_message = "Nothing should be over-committed or unpriced."
  }
  # alpha: 4 x 4 + 8 x 2 + 5 x 2 + 4 x 10 = 82 USD an hour. With borrowing: a100 on-demand
  # 4 + 2, spot 8 + 2 (its limit), sliced 5 + beta's 3 (no limit), h100 4 + beta's 4 (its lending
  # limit 10 is capped at its quota): 6 x 4 + 10 x 2 + 8 x 2 + 8 x 10 = 140.
  assert {
    condition     = output.hourly_cost_ceiling.teams.alpha == { quota = 82, with_borrowing = 140 }
    error_message = "alpha's hourly cost ceiling should be 82 USD for its quota and 140 with all it may borrow, not ${jsonencode(output.hourly_cost_ceiling.teams.alpha)}."
  }
  # beta borrows alpha's idle h100s only up to alpha's lending limit of 1: 4 x 4 + 8 x 2 + 3 x 2
  # + 4 x 10 = 78, and with borrowing 8 x 4 + 16 x 2 + 8 x 2 + 5 x 10 = 130.
  assert {
    condition     = output.hourly_cost_ceiling.teams.beta == { quota = 78, with_borrowing = 130 }
    error_message = "beta's hourly cost ceiling should be 78 and 130 USD, not ${jsonencode(output.hourly_cost_ceiling.teams.beta)}."
  }
  assert {
    condition     = output.hourly_cost_ceiling.pools == { a100 = 64, a100-mig = 16, h100 = 80 }
    error_message = "The pools' hourly cost ceilings should be 64, 16 and 80 USD, not ${jsonencode(output.hourly_cost_ceiling.pools)}."
  }
}

# A time-sliced GPU is shared by its replicas: 3 GPUs at 4 replicas are 12 nvidia.com/gpu, with
# the CPU and memory of 3 GPUs.
run "time_sliced_pool" {
  command = plan
  variables {
    gpu_pools = {
      l4 = { model = "l4", instance_types = ["g6.12xlarge"], time_slicing_replicas = 4, on_demand = { max_gpus = 8 } }
    }
    teams = { alpha = { gpus = { l4 = { on_demand = 3 } } } }
  }
  assert {
    condition = {
      for r in mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor[0].resource : r.name => r.nominal_quota
    } == { "nvidia.com/gpu" = "12", cpu = "35856m", memory = "134199Mi" }
    error_message = "alpha's 3 time-sliced L4s should be 12 nvidia.com/gpu replicas, and 3 x a g6.12xlarge's 47810m and 178933Mi over 4 GPUs: 35856m cpu and 134199Mi."
  }
}

# The whole of kueue_configuration for the default inputs is checked by internal/moduletest against
# the configuration the tests' own Kueue manager runs with; here, what the inputs change.
run "kueue_configuration_follows_the_inputs" {
  command = plan
  variables {
    fair_sharing = true
    kueue        = { wait_for_pods_ready_timeout = "45m" }
  }
  assert {
    condition     = yamldecode(output.kueue_configuration).waitForPodsReady == { timeout = "45m", recoveryTimeout = "45m", blockAdmission = false }
    error_message = "kueue.wait_for_pods_ready_timeout should set waitForPodsReady's timeout and recoveryTimeout: ${output.kueue_configuration}"
  }
  assert {
    condition     = yamldecode(output.kueue_configuration).fairSharing == { preemptionStrategies = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"] }
    error_message = "fair_sharing = true should turn fair sharing on in Kueue's configuration: ${output.kueue_configuration}"
  }
}

run "kueue_configuration_without_fair_sharing" {
  command = plan
  assert {
    condition     = !contains(keys(yamldecode(output.kueue_configuration)), "fairSharing")
    error_message = "Without fair_sharing, Kueue's configuration should have no fairSharing block: ${output.kueue_configuration}"
  }
}

run "karpenter_node_overlays_on_for_mixed_mig" {
  command = plan
  assert {
    condition     = output.karpenter_values.settings.featureGates.nodeOverlay
    error_message = "The a100-mig pool (mixed MIG) needs Karpenter's nodeOverlay gate."
  }
}

run "karpenter_node_overlays_off_without_mig" {
  command = plan
  variables {
    gpu_pools = {
      a100 = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], on_demand = { max_gpus = 8, price_per_hour = 32 } }
    }
    teams = { alpha = { gpus = { a100 = { on_demand = 4 } } } }
  }
  assert {
    condition     = !output.karpenter_values.settings.featureGates.nodeOverlay
    error_message = "Without MIG pools Karpenter needs no nodeOverlay gate."
  }
}

run "gpu_operator_values_default_mig_config" {
  command = plan
  assert {
    condition = output.gpu_operator_values == {
      mig          = { strategy = "mixed" }
      migManager   = { config = { name = "default-mig-parted-config", default = "all-disabled" } }
      dcgmExporter = { enabled = true }
    }
    error_message = "all-1g.10gb is in NVIDIA's default mig-parted config: the operator needs the mixed strategy and no config of the module's: ${jsonencode(output.gpu_operator_values)}"
  }
  assert {
    condition     = length(mlplatform_mig_config.this) == 0 && length(mlplatform_time_slicing_config.this) == 0
    error_message = "Without custom layouts or time-slicing the module writes no GPU Operator config."
  }
}

run "gpu_operator_values_custom_layout_and_time_slicing" {
  command = plan
  variables {
    gpu_pools = {
      sliced = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], mig = { config = "all-1g.10gb" }, on_demand = { max_gpus = 8, price_per_hour = 32 } }
      halves = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], mig = { profiles = { "4g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 1 } }, on_demand = { max_gpus = 8, price_per_hour = 32 } }
      h100   = { model = "h100", instance_types = ["p5.48xlarge"], mig = { config = "all-1g.10gb" }, on_demand = { max_gpus = 8, price_per_hour = 80 } }
      shared = { model = "l4", instance_types = ["g6.12xlarge"], time_slicing_replicas = 4, on_demand = { max_gpus = 8 } }
    }
    teams = { alpha = { gpus = { sliced = { on_demand = 4 }, halves = { on_demand = 4 }, shared = { on_demand = 4 } } } }
  }
  assert {
    condition = output.gpu_operator_values == {
      mig          = { strategy = "mixed" }
      migManager   = { config = { name = "mlplatform-mig-parted-config", default = "all-disabled" } }
      devicePlugin = { config = { name = "mlplatform-device-plugin-config", default = "whole-gpus" } }
      dcgmExporter = { enabled = true }
    }
    error_message = "A layout outside NVIDIA's defaults and a time-sliced pool need the module's configs: ${jsonencode(output.gpu_operator_values)}"
  }
  # The module's mig-parted config is the only one the MIG manager then reads: it keeps the
  # default names the other pools use, per model.
  assert {
    condition     = keys(mlplatform_mig_config.this[0].mig_configs) == tolist(["all-1g.10gb", "all-disabled", "custom-4g.40gb-x1-2g.20gb-x1-1g.10gb-x1"])
    error_message = "The mig-parted config should list all-disabled and every layout the pools use: ${jsonencode(keys(mlplatform_mig_config.this[0].mig_configs))}"
  }
  assert {
    condition     = sort([for e in mlplatform_mig_config.this[0].mig_configs["all-1g.10gb"].entries : e.gpu]) == tolist(["A100-SXM4-80GB", "H100-SXM5-80GB"])
    error_message = "all-1g.10gb should have an entry per model that uses it: ${jsonencode(mlplatform_mig_config.this[0].mig_configs["all-1g.10gb"].entries)}"
  }
  assert {
    condition     = mlplatform_mig_config.this[0].mig_configs["custom-4g.40gb-x1-2g.20gb-x1-1g.10gb-x1"].entries[0].mig_devices == tomap({ "4g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 1 })
    error_message = "The custom layout should give each GPU a 4g.40gb, a 2g.20gb and a 1g.10gb."
  }
  assert {
    condition     = mlplatform_time_slicing_config.this[0].configs["time-slicing-4"].resources[0].replicas == 4 && mlplatform_time_slicing_config.this[0].namespace == "gpu-operator"
    error_message = "The time-sliced pool's config should share each GPU 4 ways, in the operator's namespace."
  }
  assert {
    condition     = mlplatform_gpu_node_pool.this["shared"].node_labels["nvidia.com/device-plugin.config"] == "time-slicing-4"
    error_message = "The time-sliced pool's nodes should select their device plugin config."
  }
}

run "gpu_operator_one_mig_strategy_refused_otherwise" {
  command = plan
  variables {
    gpu_pools = {
      mixed  = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], mig = { config = "all-1g.10gb" }, on_demand = { max_gpus = 8, price_per_hour = 32 } }
      single = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], mig = { config = "all-1g.10gb", strategy = "single" }, on_demand = { max_gpus = 8, price_per_hour = 32 } }
    }
    teams = { alpha = { gpus = { mixed = { on_demand = 4 } } } }
  }
  expect_failures = [var.gpu_pools]
}

run "kueue_timeout_shorter_than_a_node_start_refused" {
  command = plan
  variables {
    kueue = { wait_for_pods_ready_timeout = "10m" }
  }
  expect_failures = [var.kueue]
}

run "kueue_timeout_not_a_duration_refused" {
  command = plan
  variables {
    kueue = { wait_for_pods_ready_timeout = "half an hour" }
  }
  expect_failures = [var.kueue]
}

run "overcommit_refused" {
  command = plan
  variables {
    teams = {
      alpha = { gpus = { a100 = { spot = 8 } } }
      beta  = { gpus = { a100 = { spot = 9 } } }
    }
  }
  expect_failures = [mlplatform_cohort.this]
}

run "overcommit_allowed_is_an_output" {
  command = plan
  variables {
    allow_overcommit = true
    teams = {
      alpha = { gpus = { a100 = { spot = 8 } } }
      beta  = { gpus = { a100 = { spot = 9 } } }
    }
  }
  assert {
    condition     = output.overcommit == { "a100-spot" = { pool = "a100", capacity_type = "spot", quota_gpus = 17, supply_gpus = 16 } }
    error_message = "The over-commit of a100 spot should be in the output overcommit."
  }
}

run "unpriced_spot_is_listed" {
  command = plan
  variables {
    gpu_pools = {
      a100 = { model = "a100-80gb", instance_types = ["p4de.24xlarge"], on_demand = { max_gpus = 8 }, spot = { max_gpus = 8 } }
    }
    teams = { alpha = { gpus = { a100 = { on_demand = 2 } } }, beta = { gpus = { a100 = { spot = 2 } } } }
  }
  assert {
    condition     = output.hourly_cost_ceiling.unpriced_flavors == ["a100-spot"] && output.hourly_cost_ceiling.teams.beta.quota == null && output.hourly_cost_ceiling.pools.a100 == null
    error_message = "A spot pool without a price should be listed as unpriced, and the ceilings it is part of null."
  }
  assert {
    condition     = output.hourly_cost_ceiling.teams.alpha.quota != null && output.hourly_cost_ceiling.teams.alpha.quota > 0
    error_message = "alpha's quota is on-demand only, priced from the provider's table."
  }
}

# Reserved capacity (capacity reservations, Capacity Blocks) is tried first and priced at its own
# price: 16 reserved H100s at 64 USD per p5.48xlarge (8 each) and 4 on-demand at 80.
run "reserved_capacity_first" {
  command = plan
  variables {
    node_class = { capacity_reservations = [{ tags = { purpose = "training" } }] }
    gpu_pools = {
      h100 = {
        model    = "h100", instance_types = ["p5.48xlarge"], termination_grace_period = "24h"
        reserved = { max_gpus = 16, price_per_hour = 64 }, on_demand = { max_gpus = 8, price_per_hour = 80 }
      }
    }
    teams = { alpha = { gpus = { h100 = { reserved = 16, on_demand = 4 } } } }
  }
  assert {
    condition     = [for f in mlplatform_cluster_queue.team["alpha"].resource_group[0].flavor : f.name] == ["h100-reserved", "h100-on-demand"]
    error_message = "The queue should try the reserved flavor before the on-demand one."
  }
  assert {
    condition     = output.hourly_cost_ceiling.teams.alpha.quota == 168
    error_message = "alpha's quota should cost 16 x 8 + 4 x 10 = 168 USD an hour."
  }
  assert {
    condition     = mlplatform_node_class.this[0].capacity_reservation_selector[0].tags.purpose == "training" && mlplatform_gpu_node_pool.this["h100"].termination_grace_period == "24h"
    error_message = "The node class should select the reservations, and the pool carry its grace period."
  }
}

run "fractional_gpus_refused" {
  command = plan
  variables {
    teams = { alpha = { gpus = { a100-mig = { spot = 2.5 } } } }
  }
  expect_failures = [var.teams]
}

run "negative_limit_refused" {
  command = plan
  variables {
    teams = { alpha = { gpus = { a100 = { spot = 2, borrowing_limit = -1 } } } }
  }
  expect_failures = [var.teams]
}

run "unknown_pool_refused" {
  command = plan
  variables {
    teams = { alpha = { gpus = { v100 = { spot = 1 } } } }
  }
  expect_failures = [mlplatform_cluster_queue.team]
}

run "capacity_type_the_pool_lacks_refused" {
  command = plan
  variables {
    teams = { alpha = { gpus = { h100 = { spot = 1 } } } }
  }
  expect_failures = [mlplatform_cluster_queue.team]
}

# Only a MultiKueue manager has no pools (tests/multikueue.tftest.hcl).
run "no_pools_refused" {
  command = plan
  variables {
    gpu_pools = {}
    teams     = {}
  }
  expect_failures = [mlplatform_cohort.this]
}

run "pool_without_capacity_refused" {
  command = plan
  variables {
    gpu_pools = { l4 = { model = "l4" } }
    teams     = {}
  }
  expect_failures = [var.gpu_pools]
}

run "mig_and_time_slicing_refused" {
  command = plan
  variables {
    gpu_pools = { a100 = {
      model = "a100-80gb", on_demand = { max_gpus = 8 }
      mig   = { config = "all-1g.10gb" }, time_slicing_replicas = 4
    } }
    teams = {}
  }
  expect_failures = [var.gpu_pools]
}

run "partial_gpu_limit_refused" {
  command = plan
  variables {
    gpu_pools = { a100 = { model = "a100-80gb", spot = { max_gpus = 0 } } }
    teams     = {}
  }
  expect_failures = [var.gpu_pools]
}

run "bad_pool_key_refused" {
  command = plan
  variables {
    gpu_pools = { A100_Pool = { model = "a100-80gb", spot = { max_gpus = 8 } } }
    teams     = {}
  }
  expect_failures = [var.gpu_pools]
}

run "too_many_pools_refused" {
  command = plan
  variables {
    gpu_pools = { for i in range(33) : "p${i}" => { model = "a100-80gb", spot = { max_gpus = 8 } } }
    teams     = {}
  }
  expect_failures = [var.gpu_pools]
}

run "bad_cluster_name_refused" {
  command = plan
  variables {
    cluster_name = "1-cluster"
  }
  expect_failures = [var.cluster_name]
}

run "bad_team_key_refused" {
  command = plan
  variables {
    teams = { Alpha_Team = {} }
  }
  expect_failures = [var.teams]
}

run "team_without_local_queues_refused" {
  command = plan
  variables {
    teams = { alpha = { local_queues = [] } }
  }
  expect_failures = [var.teams]
}

run "schedule_name_twice_in_a_team_refused" {
  command = plan
  variables {
    teams = { alpha = { training_templates = {
      train = {
        image     = "trainer:1", training_script = "train.py", hardware = { cpu_cores = 1, memory_gb = 1 }
        schedules = { nightly = { cron = ["0 2 * * *"], timezone = "UTC" } }
      }
      eval = {
        image     = "trainer:1", training_script = "eval.py", hardware = { cpu_cores = 1, memory_gb = 1 }
        schedules = { nightly = { cron = ["0 3 * * *"], timezone = "UTC" } }
      }
    } } }
  }
  expect_failures = [var.teams]
}

run "fractional_priority_refused" {
  command = plan
  variables {
    priorities = { production = { value = 1000.5 } }
  }
  expect_failures = [var.priorities]
}

run "unknown_priority_refused" {
  command = plan
  variables {
    priorities = { production = { value = 1000 } }
    teams = { alpha = {
      gpus = { a100 = { spot = 2 } }
      training_templates = { train = {
        image    = "trainer:1", training_script = "train.py", priority = "urgent"
        hardware = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
      } }
    } }
  }
  expect_failures = [mlplatform_training_job_template.this]
}

run "unknown_queue_refused" {
  command = plan
  variables {
    teams = { alpha = {
      gpus = { a100 = { spot = 2 } }
      training_templates = { train = {
        image    = "trainer:1", training_script = "train.py", queue = "batch"
        hardware = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
      } }
    } }
  }
  expect_failures = [mlplatform_training_job_template.this]
}

run "script_and_command_refused" {
  command = plan
  variables {
    teams = { alpha = { training_templates = { train = {
      image    = "trainer:1", training_script = "train.py", command = ["python", "x.py"]
      hardware = { cpu_cores = 1, memory_gb = 1 }
    } } } }
  }
  expect_failures = [var.teams]
}

run "templates_carry_the_team" {
  command = plan
  variables {
    priorities = { production = { value = 1000 } }
    teams = { alpha = {
      cost_centre  = "cc-1"
      local_queues = ["training", "batch"]
      gpus         = { a100 = { spot = 2 } }
      training_templates = { train = {
        image     = "trainer:1", training_script = "train.py", priority = "production", project = "llm", capacity = "spot"
        hardware  = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
        schedules = { nightly = { cron = ["0 2 * * *"], timezone = "UTC", parameters = { dataset_version = "latest" } } }
      } }
    } }
  }
  assert {
    condition     = mlplatform_training_job_template.this["alpha/train"].queue == "training" && mlplatform_training_job_template.this["alpha/train"].priority_class == "production"
    error_message = "A template should go to the team's first LocalQueue with its priority class."
  }
  assert {
    condition = mlplatform_training_job_template.this["alpha/train"].billing == tomap({
      "mlplatform.io/team" = "alpha", "mlplatform.io/cost-centre" = "cc-1", "mlplatform.io/project" = "llm"
    })
    error_message = "A template's pods should carry the team's billing labels and the project label."
  }
  assert {
    condition     = mlplatform_training_job_template.this["alpha/train"].service_account == "training-workflow"
    error_message = "A template's pods should run as the team's workflow service account."
  }
  assert {
    condition     = mlplatform_training_schedule.this["alpha/nightly"].template == "train" && mlplatform_training_schedule.this["alpha/nightly"].namespace == "alpha"
    error_message = "The schedule should run the template in the team's namespace."
  }
  assert {
    condition     = mlplatform_team.this["alpha"].local_queues == tomap({ training = "alpha", batch = "alpha" })
    error_message = "Every LocalQueue of the team should feed its ClusterQueue."
  }
}

run "billing_from_the_pools_supplies" {
  command = plan
  variables {
    billing = { rules = { admission_wait_slo_per_team = { alpha = "2h" } }, dashboard = { folder = "ML" } }
  }
  assert {
    condition     = keys(mlplatform_gpu_billing_rules.this[0].pools) == tolist(["a100", "a100-sliced", "h100"]) && mlplatform_gpu_billing_rules.this[0].pools["a100"]["spot"].hourly_price["nvidia.com/gpu"] == 2
    error_message = "The billing rules should price every pool, under its Karpenter name, from its supplies."
  }
  assert {
    condition     = mlplatform_gpu_billing_rules.this[0].namespace == "monitoring" && mlplatform_gpu_billing_rules.this[0].admission_wait_slo_per_queue == tomap({ alpha = "2h" })
    error_message = "The billing rules should go to the monitoring namespace, with the team's admission wait SLO on its queue."
  }
  assert {
    condition     = strcontains(mlplatform_gpu_billing_rules.this[0].rules, "a100-sliced")
    error_message = "The recorded prices should name the sliced pool."
  }
  assert {
    condition     = mlplatform_gpu_dashboard.this[0].folder == "ML" && mlplatform_gpu_dashboard.this[0].namespace == "monitoring"
    error_message = "The dashboard should go to the monitoring namespace, in its folder."
  }
}

run "billing_off_by_default" {
  command = plan
  assert {
    condition     = length(mlplatform_gpu_billing_rules.this) == 0 && length(mlplatform_gpu_dashboard.this) == 0
    error_message = "Billing rules and dashboard should be off unless asked for."
  }
}

run "billing_with_two_project_labels_refused" {
  command = plan
  variables {
    billing = { rules = {} }
    teams = {
      alpha = { gpus = { a100 = { spot = 2 } } }
      beta  = { project_label = "acme.com/project", gpus = { a100 = { spot = 2 } } }
    }
  }
  expect_failures = [mlplatform_gpu_billing_rules.this]
}

run "billing_slo_of_unknown_team_refused" {
  command = plan
  variables {
    billing = { rules = { admission_wait_slo_per_team = { gamma = "1h" } } }
  }
  expect_failures = [mlplatform_gpu_billing_rules.this]
}

run "fair_sharing_weights" {
  command = plan
  variables {
    fair_sharing = true
    teams = {
      alpha = { fair_sharing_weight = "2", gpus = { a100 = { spot = 8 } } }
      beta  = { gpus = { a100 = { spot = 8 } } }
    }
  }
  assert {
    condition     = mlplatform_cluster_queue.team["alpha"].fair_sharing_weight == "2" && mlplatform_cluster_queue.team["beta"].fair_sharing_weight == null
    error_message = "Under fair sharing, queues should carry the teams' weights (Kueue's default where unset)."
  }
}

run "fair_sharing_with_borrow_within_cohort_refused" {
  command = plan
  variables {
    fair_sharing = true
    preemption   = { borrow_within_cohort = "LowerPriority" }
  }
  expect_failures = [mlplatform_cohort.this]
}

run "preemption_kueue_refuses_refused" {
  command = plan
  variables {
    preemption = { reclaim_within_cohort = "Never", borrow_within_cohort = "LowerPriority" }
  }
  expect_failures = [var.preemption]
}

run "preemption_within_cluster_queue_refused" {
  command = plan
  variables {
    preemption = { within_cluster_queue = "Any" }
  }
  expect_failures = [var.preemption]
}

run "preemption_reclaim_within_cohort_refused" {
  command = plan
  variables {
    preemption = { reclaim_within_cohort = "LowerOrNewerEqualPriority" }
  }
  expect_failures = [var.preemption]
}

run "preemption_borrow_within_cohort_refused" {
  command = plan
  variables {
    preemption = { borrow_within_cohort = "Any" }
  }
  expect_failures = [var.preemption]
}

run "preemption_threshold_without_borrowing_refused" {
  command = plan
  variables {
    preemption = { borrow_max_priority_threshold = 100 }
  }
  expect_failures = [var.preemption]
}

run "gpu_operator_namespace_refused" {
  command = plan
  variables {
    gpu_operator = { namespace = "GPU_Operator" }
  }
  expect_failures = [var.gpu_operator]
}

run "preflight_namespace_refused" {
  command = plan
  variables {
    preflight = { enabled = false, kueue_namespace = "Kueue System" }
  }
  expect_failures = [var.preflight]
}

run "role_and_instance_profile_refused" {
  command = plan
  variables {
    node_class = { role = "r", instance_profile = "p" }
  }
  expect_failures = [var.node_class]
}

run "node_class_from_cluster_name" {
  command = plan
  variables {
    cluster_name = "prod-eu"
  }
  assert {
    condition     = mlplatform_node_class.this[0].role == "KarpenterNodeRole-prod-eu" && mlplatform_node_class.this[0].subnet_selector[0].tags == tomap({ "karpenter.sh/discovery" = "prod-eu" })
    error_message = "The node class should take its role and discovery tags from cluster_name."
  }
}
