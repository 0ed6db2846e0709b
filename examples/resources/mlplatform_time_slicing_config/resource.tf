# The device plugin's sharing configs (gpu-operator/time-slicing-config). Point the GPU Operator
# at it with the Helm values devicePlugin.config.name=time-slicing-config and
# devicePlugin.config.default=any; a node picks another with the label
# nvidia.com/device-plugin.config=<name>.
resource "mlplatform_time_slicing_config" "this" {
  name = "time-slicing-config"

  configs = {
    # Every GPU shared by 4 pods: a node with 4 L4 GPUs advertises 16 nvidia.com/gpu.
    "any" = {
      fail_requests_greater_than_one = true
      resources                      = [{ name = "nvidia.com/gpu", replicas = 4 }]
    }

    # MIG slices shared too, advertised as nvidia.com/mig-1g.10gb.shared.
    "a100-mig" = {
      mig_strategy      = "mixed"
      rename_by_default = true
      resources = [
        { name = "nvidia.com/mig-1g.10gb", replicas = 2 },
      ]
    }

    # CUDA MPS: each of 10 pods gets a tenth of a whole GPU's memory and compute.
    "mps" = {
      sharing   = "mps"
      resources = [{ name = "nvidia.com/gpu", replicas = 10 }]
    }

    # Nothing shared; the driver comes from the GPU Operator's driver container.
    "driver-container" = {
      nvidia_driver_root = "/run/nvidia/driver"
      plugin             = { device_list_strategy = ["cdi-cri"] }
    }
  }
}
