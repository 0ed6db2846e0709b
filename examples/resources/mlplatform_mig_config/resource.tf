# The layout a team asked for, checked by placement at plan time.
data "mlplatform_mig_layout" "training" {
  gpu           = "a100-80gb"
  instance_type = "p4de.24xlarge"
  profiles      = { "4g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 1 }
}

# The GPU Operator's custom mig-parted config (gpu-operator/custom-mig-config, key config.yaml).
# Point the operator at it with the Helm value migManager.config.name=custom-mig-config, then
# label nodes nvidia.com/mig.config=<one of the names below>.
resource "mlplatform_mig_config" "this" {
  mig_configs = {
    # The MIG manager knows only the configs listed here once it uses this ConfigMap.
    "all-disabled" = { entries = [{ mig_enabled = false }] }

    "all-1g.10gb" = { entries = [
      { gpu = "A100-SXM4-80GB", mig_enabled = true, mig_devices = { "1g.10gb" = 7 } },
      { gpu = "H100-SXM5-80GB", mig_enabled = true, mig_devices = { "1g.10gb" = 7 } },
    ] }

    # The custom layout under the name the node label must carry.
    (data.mlplatform_mig_layout.training.valid_config_name) = { entries = [{
      gpu         = "a100-80gb"
      mig_enabled = true
      mig_devices = data.mlplatform_mig_layout.training.layout
    }] }

    # The GPU node pool's p4de-half-balanced, under the name its nodes carry.
    (mlplatform_gpu_node_pool.half.mig.config_name) = { entries = [
      { gpu = "a100-80gb", devices = [0, 1, 2, 3], mig_enabled = true, mig_devices = { "1g.10gb" = 2, "2g.20gb" = 1, "3g.40gb" = 1 } },
      { gpu = "a100-80gb", devices = [4, 5, 6, 7], mig_enabled = false },
    ] }

    # Half of a node's GPUs whole, half split in two.
    "a100-half-3g" = { entries = [
      { gpu = "a100-80gb", devices = [0, 1, 2, 3], mig_enabled = false },
      { gpu = "a100-80gb", devices = [4, 5, 6, 7], mig_enabled = true, mig_devices = { "3g.40gb" = 2 } },
    ] }
  }

  labels = {
    team = "platform"
  }
}
