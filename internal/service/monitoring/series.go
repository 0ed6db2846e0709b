// Package monitoring holds the GPU-hour bill: the billing rules (a prometheus-operator
// PrometheusRule of recording rules and alerts) and the GPU dashboard (a Grafana dashboard in a
// ConfigMap for Grafana's dashboard sidecar). The dashboard's panels query only the series the
// rules record, named here.
package monitoring

// The series the billing rules record, and their labels. A team is its namespace's team label,
// a project the pod's project label, a pool the `mlplatform_gpu_node_pool` whose node the pod runs
// on, capacity_type Karpenter's (`reserved`, `on-demand`, `spot`), resource the extended resource as
// kube-state-metrics writes it (`nvidia_com_gpu`, `nvidia_com_mig_1g_10gb`).
const (
	// seriesPodGPURequests: units of each GPU resource a running pod holds, as it requested them
	// (a 1g.10gb slice is 1). Labels as seriesPodGPUs. Cost is these units x seriesUnitPrice.
	seriesPodGPURequests = "mlplatform:pod_gpu_requests"
	// seriesPodGPUs: GPUs a running pod holds, a MIG slice counted as its share of a GPU
	// (compute slices / the GPU's slices). Labels: namespace, pod, node, resource, team, project,
	// pool, capacity_type.
	seriesPodGPUs = "mlplatform:pod_gpus"
	// seriesTeamGPUs: seriesPodGPUs summed by team, project, namespace, pool, capacity_type.
	seriesTeamGPUs = "mlplatform:team_gpus"
	// seriesUnitPrice: USD per hour of one unit of a resource, the pools' supplies' hourly_price.
	// Labels: pool, capacity_type, resource.
	seriesUnitPrice = "mlplatform:gpu_unit_price_usd_per_hour"
	// seriesTeamCostPerHour: what the team's running pods cost per hour (USD), by team, project,
	// namespace, pool, capacity_type.
	seriesTeamCostPerHour = "mlplatform:team_cost_usd_per_hour"
	// seriesTeamGPUHours and seriesTeamCost: GPU-hours and USD over the last hour, by team,
	// project, namespace, pool, capacity_type. Over a longer range, sum them at a 1h step.
	seriesTeamGPUHours = "mlplatform:team_gpu_hours:1h"
	seriesTeamCost     = "mlplatform:team_cost_usd:1h"

	// Per GPU or MIG instance, from dcgm-exporter. Labels: node, gpu, gpu_model, mig_profile and
	// mig_instance (empty for a whole GPU), pool, capacity_type, and for a GPU or instance a pod
	// holds namespace, pod, team, project. Temperature is per GPU: node, gpu, gpu_model, pool,
	// capacity_type.
	seriesGPUEngineActive = "mlplatform:gpu_engine_active:ratio" // DCGM_FI_PROF_GR_ENGINE_ACTIVE, 0-1
	seriesGPUMemoryUsed   = "mlplatform:gpu_memory_used:ratio"   // FB_USED / (FB_USED + FB_FREE)
	seriesGPUTemperature  = "mlplatform:gpu_temperature_celsius" // DCGM_FI_DEV_GPU_TEMP (whole GPUs only)
	seriesGPUXIDErrors    = "mlplatform:gpu_xid_errors"          // DCGM_FI_DEV_XID_ERRORS: the last XID

	// Per Kueue ClusterQueue (label cluster_queue), from Kueue's metrics.
	seriesQueuePending          = "mlplatform:queue_pending_workloads"          // status: active, inadmissible
	seriesQueueAdmitted         = "mlplatform:queue_admitted_workloads"         // admitted and not finished
	seriesQueueAdmissionWaitP95 = "mlplatform:queue_admission_wait_seconds:p95" // over 5m
	seriesQueueQuotaUsed        = "mlplatform:queue_quota_used:ratio"           // flavor, resource: usage / nominal quota

	// Joins the rules share (value 1). seriesNodePool: node, pool, capacity_type (from the node's
	// Karpenter labels). seriesPodOwner: namespace, pod, team, project.
	seriesNodePool = "mlplatform:node_pool"
	seriesPodOwner = "mlplatform:pod_owner"
)
