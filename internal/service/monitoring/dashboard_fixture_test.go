package monitoring_test

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

// dashboardFixture is a synthetic day of the series the billing rules record (series.go, with
// the labels its comments give), written directly: two teams on an A100 pool (spot and on-demand,
// MIG 1g.10gb instances on one node) and an H100 pool (on-demand, whole GPUs, one idle), two
// ClusterQueues. Every series is constant over three hours at a 1m interval; the dashboard is
// evaluated at the end.
func dashboardFixture() dashboardData {
	var s []dashboardSeries
	add := func(name string, value float64, labels ...string) {
		s = append(s, dashboardSeries{Series: name + promLabels(labels...), Values: fmt.Sprintf("%g+0x180", value)})
	}

	type pod struct {
		team, project, namespace, pod, node, resource, pool, capacity string
		gpus, pricePerGPU                                             float64
	}
	pods := []pod{
		{"research", "llm", "research", "pretrain-0", "a100-od-1", "nvidia_com_gpu", "a100", "on-demand", 8, 4.10},
		{"research", "llm", "research", "finetune-0", "a100-spot-1", "nvidia_com_gpu", "a100", "spot", 4, 1.60},
		{"vision", "detector", "vision", "sweep-3", "a100-mig-1", "nvidia_com_mig_1g_10gb", "a100", "on-demand", 1.0 / 7, 4.10},
		{"vision", "segmenter", "vision", "train-1", "h100-od-1", "nvidia_com_gpu", "h100", "on-demand", 1, 6.90},
	}
	for _, p := range pods {
		add(monitoring.SeriesPodGPUs, p.gpus, "namespace", p.namespace, "pod", p.pod, "node", p.node, "resource", p.resource,
			"team", p.team, "project", p.project, "pool", p.pool, "capacity_type", p.capacity)
		group := []string{"team", p.team, "project", p.project, "namespace", p.namespace, "pool", p.pool, "capacity_type", p.capacity}
		add(monitoring.SeriesTeamGPUs, p.gpus, group...)
		add(monitoring.SeriesTeamCostPerHour, p.gpus*p.pricePerGPU, group...)
		add(monitoring.SeriesTeamGPUHours, p.gpus, group...)
		add(monitoring.SeriesTeamCost, p.gpus*p.pricePerGPU, group...)
	}
	add(monitoring.SeriesUnitPrice, 4.10, "pool", "a100", "capacity_type", "on-demand", "resource", "nvidia_com_gpu")
	add(monitoring.SeriesUnitPrice, 1.60, "pool", "a100", "capacity_type", "spot", "resource", "nvidia_com_gpu")
	add(monitoring.SeriesUnitPrice, 4.10/7, "pool", "a100", "capacity_type", "on-demand", "resource", "nvidia_com_mig_1g_10gb")
	add(monitoring.SeriesUnitPrice, 6.90, "pool", "h100", "capacity_type", "on-demand", "resource", "nvidia_com_gpu")

	// GPUs and MIG instances as dcgm-exporter sees them; an idle one has no pod, namespace or team.
	type device struct {
		node, gpu, model, mig, pool, capacity, namespace, pod, team string
		active, memory                                              float64
	}
	devices := []device{
		{"a100-od-1", "0", "A100-SXM4-80GB", "", "a100", "on-demand", "research", "pretrain-0", "research", 0.92, 0.81},
		{"a100-spot-1", "0", "A100-SXM4-80GB", "", "a100", "spot", "research", "finetune-0", "research", 0.75, 0.64},
		{"a100-mig-1", "0", "A100-SXM4-80GB", "1g.10gb", "a100", "on-demand", "vision", "sweep-3", "vision", 0.55, 0.40},
		{"a100-mig-1", "0", "A100-SXM4-80GB", "1g.10gb", "a100", "on-demand", "", "", "", 0, 0},
		{"h100-od-1", "0", "H100-SXM5-80GB", "", "h100", "on-demand", "vision", "train-1", "vision", 0.88, 0.70},
		{"h100-od-1", "1", "H100-SXM5-80GB", "", "h100", "on-demand", "", "", "", 0, 0.01},
	}
	seen := map[string]bool{}
	for i, d := range devices {
		labels := []string{"node", d.node, "gpu", d.gpu, "gpu_model", d.model, "mig_profile", d.mig, "pool", d.pool,
			"capacity_type", d.capacity, "namespace", d.namespace, "pod", d.pod, "team", d.team}
		add(monitoring.SeriesGPUEngineActive, d.active, labels...)
		add(monitoring.SeriesGPUMemoryUsed, d.memory, labels...)
		whole := d.node + "/" + d.gpu
		if seen[whole] {
			continue
		}
		seen[whole] = true
		gpuLabels := []string{"node", d.node, "gpu", d.gpu, "gpu_model", d.model, "pool", d.pool, "capacity_type", d.capacity}
		add(monitoring.SeriesGPUTemperature, 55+float64(i), gpuLabels...)
		xid := dashboardSeries{Series: monitoring.SeriesGPUXIDErrors + promLabels(gpuLabels...), Values: "0+0x180"}
		if d.node == "a100-spot-1" {
			xid.Values = "0+0x120 79+0x60" // fell off the bus an hour ago
		}
		s = append(s, xid)
	}

	for _, q := range []struct {
		name, flavor                            string
		active, inadmissible, admitted, waitP95 float64
		gpuQuotaUsed, migQuotaUsed              float64
	}{
		{"research-a100", "a100-on-demand", 3, 1, 2, 840, 0.8, 0},
		{"vision-h100", "h100-on-demand", 0, 0, 1, 30, 1.0 / 8, 2.0 / 14},
	} {
		add(monitoring.SeriesQueuePending, q.active, "cluster_queue", q.name, "status", "active")
		add(monitoring.SeriesQueuePending, q.inadmissible, "cluster_queue", q.name, "status", "inadmissible")
		add(monitoring.SeriesQueueAdmitted, q.admitted, "cluster_queue", q.name)
		add(monitoring.SeriesQueueAdmissionWaitP95, q.waitP95, "cluster_queue", q.name)
		add(monitoring.SeriesQueueQuotaUsed, q.gpuQuotaUsed, "cluster_queue", q.name, "flavor", q.flavor, "resource", "nvidia.com/gpu")
		add(monitoring.SeriesQueueQuotaUsed, q.migQuotaUsed, "cluster_queue", q.name, "flavor", q.flavor, "resource", "nvidia.com/mig-1g.10gb")
	}

	return dashboardData{
		Interval: time.Minute,
		Series:   s,
		EvalTime: 3 * time.Hour,
		Range:    time.Hour,
		Selection: map[string]string{
			"team": "research", "pool": "a100", "cluster_queue": "research-a100",
		},
		Recorded: monitoring.RecordedSeries,
	}
}

// promLabels writes label pairs in Prometheus' series notation, leaving out empty values (which
// Prometheus does not store).
func promLabels(kv ...string) string {
	var pairs []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			pairs = append(pairs, fmt.Sprintf("%s=%q", kv[i], kv[i+1]))
		}
	}
	sort.Strings(pairs)
	return "{" + strings.Join(pairs, ", ") + "}"
}
