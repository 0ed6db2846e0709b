# What a p4de.24xlarge node sliced all-1g.10gb exposes: 56 nvidia.com/mig-1g.10gb.
data "mlplatform_mig_layout" "small" {
  gpu           = "a100-80gb"
  instance_type = "p4de.24xlarge"
  config        = "all-1g.10gb"
  strategy      = "mixed"
}

# A custom layout: checked by placement at plan time. It is not one of mig-parted's default
# configs, so custom_config is true and valid_config_name must be defined in an
# mlplatform_mig_config (see that resource's example).
data "mlplatform_mig_layout" "mixed" {
  gpu           = "a100-80gb"
  instance_type = "p4de.24xlarge"
  profiles      = { "4g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 1 }
}

output "small_per_node" {
  value = data.mlplatform_mig_layout.small.resources_per_node # { "nvidia.com/mig-1g.10gb" = 56 }
}

output "mixed_node_labels" {
  # nvidia.com/mig.config, nvidia.com/gpu.product and the Karpenter GPU labels, for a node pool.
  value = data.mlplatform_mig_layout.mixed.node_labels
}
