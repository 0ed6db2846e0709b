# aws-samples/karpenter-blueprints@529b88cf (2026-06-08), blueprints/reserved-capacity/odcr.yaml:
# the EC2NodeClass, with <<KARPENTER_NODE_IAM_ROLE_NAME>> = KarpenterNodeRole-demo and
# <<CLUSTER_NAME>> = demo.
resource "mlplatform_node_class" "odcr" {
  name                          = "odcr-nodeclass"
  role                          = "KarpenterNodeRole-demo"
  ami_selector                  = [{ alias = "al2023@latest" }]
  security_group_selector       = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  subnet_selector               = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  capacity_reservation_selector = [{ tags = { intent = "apps", project = "demo" } }]
}
