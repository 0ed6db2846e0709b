package monitoring

import (
	"regexp"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// What the rules read, as the exporters write it. Each fact names its source.

// kube-state-metrics v2 (docs/metrics/workload/pod-metrics.md, cluster/node-metrics.md,
// cluster/namespace-metrics.md): kube_pod_container_resource_requests{namespace, pod, uid,
// container, node, resource, unit}, kube_pod_status_phase{namespace, pod, uid, phase},
// kube_pod_labels{namespace, pod, uid, label_*}, kube_namespace_labels{namespace, label_*},
// kube_node_labels{node, label_*}. The label_* of an object label appear only for the keys
// --metric-labels-allowlist names.
const (
	ksmRequests       = "kube_pod_container_resource_requests"
	ksmPodPhase       = "kube_pod_status_phase"
	ksmPodLabels      = "kube_pod_labels"
	ksmNamespaceLabel = "kube_namespace_labels"
	ksmNodeLabels     = "kube_node_labels"
)

// ksmInvalidLabelChar and ksmSnake are kube-state-metrics' internal/store/utils.go
// (invalidLabelCharRE, matchAllCap): an object label key becomes "label_" + the key with every
// character outside [a-zA-Z0-9_] replaced by "_", then snake-cased and lower-cased.
var (
	ksmInvalidLabelChar = regexp.MustCompile(`[^a-zA-Z0-9_]`)
	ksmSnake            = regexp.MustCompile("([a-z0-9])([A-Z])")
)

// ksmLabel is the Prometheus label kube-state-metrics writes for an object label key (labelName).
func ksmLabel(key string) string {
	s := ksmInvalidLabelChar.ReplaceAllString(key, "_")
	return "label_" + strings.ToLower(ksmSnake.ReplaceAllString(s, "${1}_${2}"))
}

// ksmResource is the resource label kube-state-metrics writes for an extended resource
// (internal/store/pod.go: SanitizeLabelName), e.g. nvidia_com_mig_1g_10gb.
func ksmResource(name string) string { return ksmInvalidLabelChar.ReplaceAllString(name, "_") }

// dcgm-exporter 4.5.x (internal/pkg/rendermetrics/render_metrics.go, etc/default-counters.csv,
// internal/pkg/transformation/const.go): every GPU metric has gpu, UUID, pci_bus_id, device,
// modelName and Hostname (the node: NODE_NAME in Kubernetes); a MIG instance adds GPU_I_PROFILE
// and GPU_I_ID; with its Kubernetes mapping on, a GPU or instance a pod holds adds namespace, pod
// and container. The default counters include every field below.
const (
	dcgmEngineActive = gpu.DCGMEngineActive
	dcgmFBUsed       = gpu.DCGMFBUsed
	dcgmFBFree       = gpu.DCGMFBFree
	dcgmTemperature  = gpu.DCGMTemperature
	dcgmXID          = gpu.DCGMXID

	dcgmModel       = "modelName"
	dcgmMIGProfile  = "GPU_I_PROFILE"
	dcgmMIGInstance = "GPU_I_ID"
	// defaultDCGMNodeLabel is the node label of released dcgm-exporters; its main branch renames
	// it "hostname" (NVIDIA/dcgm-exporter#655).
	defaultDCGMNodeLabel = "Hostname"
)

// Kueue v0.17 to v0.19.2 (pkg/metrics/metrics.go; names and labels checked against v0.19.2).
// Every metric has replica_role (leader, follower or standalone); a follower's gauges are not the
// truth, so the rules skip them.
const (
	kueuePending       = "kueue_pending_workloads"            // {cluster_queue, status}
	kueueAdmittedTotal = "kueue_admitted_workloads_total"     // {cluster_queue, priority_class}
	kueueAdmittedNow   = "kueue_admitted_active_workloads"    // {cluster_queue}
	kueueAdmissionWait = "kueue_admission_wait_time_seconds"  // histogram {cluster_queue, priority_class}
	kueueQueueStatus   = "kueue_cluster_queue_status"         // {cluster_queue, status: pending, active, terminating}
	kueueUsage         = "kueue_cluster_queue_resource_usage" // {cohort, cluster_queue, flavor, resource}
	kueueNominalQuota  = "kueue_cluster_queue_nominal_quota"  // {cohort, cluster_queue, flavor, resource}
	kueueNotFollower   = `replica_role!="follower"`
)
