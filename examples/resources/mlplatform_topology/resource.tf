# The EKS network topology of p4d/p5/p6 nodes, broadest layer first, then the node itself.
resource "mlplatform_topology" "aws" {
  name = "aws-network"
  levels = [
    "topology.k8s.aws/network-node-layer-1",
    "topology.k8s.aws/network-node-layer-2",
    "topology.k8s.aws/network-node-layer-3",
    "kubernetes.io/hostname",
  ]
}

# A flavor whose pods Kueue places by that topology. A job then asks with the pod annotation
# kueue.x-k8s.io/podset-required-topology: topology.k8s.aws/network-node-layer-3 (all pods under
# one network node) or kueue.x-k8s.io/podset-preferred-topology.
resource "mlplatform_resource_flavor" "h100_reserved" {
  name          = "h100-reserved"
  node_labels   = { "karpenter.sh/nodepool" = "h100-reserved" }
  topology_name = mlplatform_topology.aws.name
  # Kueue forbids changing a topology's levels or a flavor's topology_name: replace both together.
  lifecycle {
    replace_triggered_by = [mlplatform_topology.aws]
  }
}
