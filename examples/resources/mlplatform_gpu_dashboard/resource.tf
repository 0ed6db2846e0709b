# The GPU platform's dashboard for a kube-prometheus-stack Grafana. Its panels query the series
# that mlplatform_gpu_billing_rules records. Grafana's sidecar loads it when installed with:
#
#   grafana:
#     sidecar:
#       dashboards:
#         enabled: true
#         label: grafana_dashboard
#         labelValue: "1"
#         searchNamespace: ALL
#         folderAnnotation: grafana_folder
#         provider:
#           foldersFromFilesStructure: true
resource "mlplatform_gpu_dashboard" "this" {
  namespace  = "monitoring"
  folder     = "ML platform"
  datasource = "Prometheus"
  time_from  = "now-7d"
  labels     = { team = "platform" }
}
