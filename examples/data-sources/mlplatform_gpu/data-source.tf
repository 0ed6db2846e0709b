# Any name people use works: "a100-80gb", "NVIDIA-A100-SXM4-80GB", "a100".
data "mlplatform_gpu" "a100" {
  name = "a100-80gb"
}

output "a100_mig_profiles" {
  # e.g. { "1g.10gb" = 7, "2g.20gb" = 3, "3g.40gb" = 2, ... }
  value = { for p in data.mlplatform_gpu.a100.mig_profiles : p.name => p.max_instances }
}

output "a100_instance_types" {
  value = data.mlplatform_gpu.a100.instance_types # [{ name = "p4de.24xlarge", gpus = 8 }]
}
