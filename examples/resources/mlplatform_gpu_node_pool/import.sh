# Import by the pool's name: its NodePools are <name>-spot and <name>-on-demand.
terraform import mlplatform_gpu_node_pool.a100 a100-80gb
