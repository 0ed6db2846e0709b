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
