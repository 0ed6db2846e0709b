# Does the cluster run Kueue, Karpenter and the GPU Operator as the platform needs? Pass what you
# give their Helm releases (the ml-platform module does this itself: its output `preflight`).
data "mlplatform_preflight" "this" {
  kueue = {
    # The value of the Kueue chart's managerConfig.controllerManagerConfigYaml.
    configuration = yamlencode({
      apiVersion   = "config.kueue.x-k8s.io/v1beta2"
      kind         = "Configuration"
      integrations = { frameworks = ["batch/job", "pod"] }
      metrics      = { enableClusterQueueResources = true }
    })
  }
  karpenter = {
    values    = yamlencode({ settings = { featureGates = { nodeOverlay = true } } })
    namespace = "kube-system"
  }
  gpu_operator = {
    values = yamlencode({
      mig          = { strategy = "mixed" }
      migManager   = { config = { name = "default-mig-parted-config", default = "all-disabled" } }
      dcgmExporter = { enabled = true }
    })
  }
}

# Each mismatch, e.g. "kueue: managerConfig.controllerManagerConfigYaml: integrations.frameworks
# must include pod"; empty when the cluster matches (and when no cluster could be read: see checked).
output "preflight" {
  value = {
    checked = data.mlplatform_preflight.this.checked
    fixes   = [for f in data.mlplatform_preflight.this.findings : "${f.component}: ${f.fix}"]
  }
}
