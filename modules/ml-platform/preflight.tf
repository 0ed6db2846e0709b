# Before anything is written: does the cluster run Kueue, Karpenter and the GPU Operator with the
# settings this platform relies on (the outputs kueue_configuration, karpenter_values and
# gpu_operator_values)? Each mismatch is a warning at plan and an element of the output
# `preflight`; without a reachable cluster the plan warns and goes on. A MultiKueue manager runs
# no GPU nodes, so only its Kueue is checked.

data "mlplatform_preflight" "this" {
  count = var.preflight.enabled ? 1 : 0

  kueue = {
    configuration = yamlencode(local.kueue_configuration)
    namespace     = var.preflight.kueue_namespace
  }
  karpenter = local.manager ? null : {
    # Only the gates the platform needs on: one it leaves off may be on for other reasons.
    values    = yamlencode({ settings = { featureGates = { for g, on in local.karpenter_values.settings.featureGates : g => on if on } } })
    namespace = var.preflight.karpenter_namespace
  }
  gpu_operator = local.manager ? null : {
    values    = yamlencode(local.gpu_operator_values)
    namespace = var.gpu_operator.namespace
  }
}
