# The EC2 settings of GPU nodes. Billing keys become EC2 tags on instances and volumes, merged
# with the provider's default_labels, so the cloud bill can be split per team.
resource "mlplatform_node_class" "gpu" {
  name = "gpu"
  role = "KarpenterNodeRole-training"

  ami_selector            = [{ alias = "al2023@latest" }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = "training" } }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = "training" } }]

  # Room for container images and datasets on the root volume.
  block_device = [{
    device_name = "/dev/xvda"
    root_volume = true
    volume_size = "500Gi"
    volume_type = "gp3"
  }]

  billing = { team = "ml-platform" }
}

# Multi-node training on p5.48xlarge, as the EKS GPU blueprints launch it: capacity reservations
# (and Capacity Blocks for ML) tagged for training first, a cluster placement group, EFA on the
# network cards, the local NVMe disks as one RAID-0 array for images and staged data, and NUMA
# alignment.
resource "mlplatform_node_class" "p5_training" {
  name = "p5-training"
  role = "KarpenterNodeRole-training"

  ami_selector            = [{ alias = "al2023@latest" }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = "training" } }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = "training" } }]

  capacity_reservation_selector = [{ tags = { purpose = "training" } }]
  placement_group_name          = "training-cluster"
  # The ENA interface and an EFA-only interface on each of the 32 network cards, as AWS recommends.
  efa_instance_type     = "p5.48xlarge"
  instance_store_policy = "RAID0"

  # A pod's GPUs, CPUs and EFA interfaces on one NUMA node (written as an AL2023 nodeadm
  # NodeConfig in the user data).
  node_config = {
    topology_manager_policy = "single-numa-node"
    topology_manager_scope  = "pod"
    cpu_manager_policy      = "static"
  }
}
