# A Topology is cluster-scoped: import it by name.
terraform import mlplatform_topology.aws aws-network
