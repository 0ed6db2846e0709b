# A ResourceFlavor is cluster-scoped: import it by name.
terraform import mlplatform_resource_flavor.a100_on_demand a100-80gb-on-demand
