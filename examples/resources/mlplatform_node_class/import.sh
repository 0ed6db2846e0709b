# An EC2NodeClass is cluster-scoped: import it by name.
terraform import mlplatform_node_class.gpu gpu
