package monitoring

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// rulesConfig is everything the billing rules are rendered from, in plain Go: the resource's
// attributes once known.
type rulesConfig struct {
	Interval      string // Prometheus duration: how often the group is evaluated
	TeamLabel     string // namespace label key
	ProjectLabel  string // pod label key
	DCGMNodeLabel string // dcgm-exporter's label that names the node
	// The labels that name the pod holding a GPU, as Prometheus stores dcgm-exporter's namespace
	// and pod: exported_* when its scrape adds the exporter's own (honorLabels false).
	DCGMNamespaceLabel, DCGMPodLabel string
	// Pools are the GPU node pools' supplies: pool name, capacity type, supply.
	Pools map[string]map[string]poolSupply

	GPUMemoryRatio        float64
	GPUIdleFor            string
	PendingFor            string
	AdmissionWaitSLO      string
	AdmissionWaitSLOQueue map[string]string // cluster queue -> SLO
	QueueInactiveFor      string
	AlertLabels           map[string]string
}

// poolSupply is what mlplatform_gpu_node_pool's supplies say of one capacity type.
type poolSupply struct {
	NodeLabels  map[string]string
	PerGPU      map[string]int64   // what one GPU exposes of each resource; nil for GPUs split into MIG parts
	HourlyPrice map[string]float64 // nil when the pool has no price
}

// Fixed parts of the rules.
const (
	ruleGroupName = "mlplatform-gpu-billing"
	// gpuIdleRatio: below this engine-active ratio a GPU counts as idle.
	gpuIdleRatio = 0.01
	// gpuMemoryFor: how long memory must stay above the ratio before the alert fires.
	gpuMemoryFor = "5m"
	// waitWindow is the range of the admission wait p95.
	waitWindow = "5m"
)

// Alert names.
const (
	alertGPUMemory     = "MLPlatformGPUMemoryAlmostFull"
	alertGPUIdle       = "MLPlatformAllocatedGPUIdle"
	alertGPUXID        = "MLPlatformGPUXIDError"
	alertAdmissionWait = "MLPlatformAdmissionWaitAboveSLO"
	alertPending       = "MLPlatformWorkloadsPending"
	alertQueueInactive = "MLPlatformClusterQueueInactive"
)

// renderRules builds the PrometheusRule's spec: recording rules first, then the alerts on them,
// in one group, so that every evaluation sees the series recorded before it.
func renderRules(c rulesConfig) (monitoringv1.PrometheusRuleSpec, error) {
	interval, err := model.ParseDuration(c.Interval)
	if err != nil || time.Duration(interval) < time.Second || time.Duration(interval)%time.Second != 0 {
		return monitoringv1.PrometheusRuleSpec{}, fmt.Errorf("evaluation interval %q is not a whole number of seconds", c.Interval)
	}
	shares, err := unitShares(c.Pools)
	if err != nil {
		return monitoringv1.PrometheusRuleSpec{}, err
	}
	var rules []monitoringv1.Rule
	rules = append(rules, joinRules(c)...)
	rules = append(rules, gpuRules(shares, time.Duration(interval))...)
	rules = append(rules, priceRules(c.Pools)...)
	rules = append(rules, dcgmRules(c)...)
	rules = append(rules, kueueRules()...)
	rules = append(rules, alertRules(c)...)
	d := monitoringv1.Duration(c.Interval)
	return monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: ruleGroupName, Interval: &d, Rules: rules}}}, nil
}

func record(name, expr string) monitoringv1.Rule {
	return monitoringv1.Rule{Record: name, Expr: intstr.FromString(expr)}
}

// relabel copies label from into to: label_replace(expr, to, "$1", from, "(.*)").
func relabel(expr, to, from string) string {
	return fmt.Sprintf(`label_replace(%s, %q, "$1", %q, "(.*)")`, expr, to, from)
}

// joinRules record who a pod belongs to and which pool a node is of, once for every rule.
func joinRules(c rulesConfig) []monitoringv1.Rule {
	pool := fmt.Sprintf(`label_replace(%s, "pool", "$1", %q, "(.+)-(?:%s)")`,
		relabel(ksmNodeLabels, "capacity_type", ksmLabel(capacity.LabelCapacityType)), ksmLabel(capacity.LabelNodePool),
		strings.Join(capacity.CapacityTypes, "|"))
	owner := fmt.Sprintf("max by (namespace, pod, project) (%s)\n* on (namespace) group_left (team)\nmax by (namespace, team) (%s)",
		relabel(ksmPodLabels, "project", ksmLabel(c.ProjectLabel)), relabel(ksmNamespaceLabel, "team", ksmLabel(c.TeamLabel)))
	return []monitoringv1.Rule{
		record(seriesNodePool, fmt.Sprintf("max by (node, pool, capacity_type) (%s)", pool)),
		record(seriesPodOwner, owner),
	}
}

// gpuRules record what running pods hold and the team sums of it. A pod counts while
// kube-state-metrics says it is Running; a MIG slice counts as its share of a GPU.
func gpuRules(shares []unitShare, interval time.Duration) []monitoringv1.Rule {
	requests := fmt.Sprintf(`sum by (namespace, pod, node, resource) (
  %s{resource=~"nvidia_com_gpu|nvidia_com_mig_.+", unit="integer"}
  * on (namespace, pod, uid) group_left ()
  (%s{phase="Running"} == 1)
)
* on (node) group_left (pool, capacity_type) %s
* on (namespace, pod) group_left (team, project) %s`, ksmRequests, ksmPodPhase, seriesNodePool, seriesPodOwner)
	terms := make([]string, len(shares))
	for i, s := range shares {
		sel := fmt.Sprintf("resource=%q", s.Resource)
		if s.Pools != nil {
			sel += fmt.Sprintf(", pool=~%q", alternatives(s.Pools))
		}
		terms[i] = fmt.Sprintf("%s{%s}", seriesPodGPURequests, sel)
		if s.Share != 1 {
			terms[i] += " * " + formatFloat(s.Share)
		}
	}
	by := "team, project, namespace, pool, capacity_type"
	// A recorded sample stands for one interval of use: GPU-hours are the samples of the last
	// hour times the interval. (avg_over_time would count a pod running half the hour as a whole.)
	perHour := fmt.Sprintf("* %d / 3600", int64(interval/time.Second))
	return []monitoringv1.Rule{
		record(seriesPodGPURequests, requests),
		record(seriesPodGPUs, strings.Join(terms, "\nor\n")),
		record(seriesTeamGPUs, fmt.Sprintf("sum by (%s) (%s)", by, seriesPodGPUs)),
		record(seriesTeamCostPerHour, fmt.Sprintf("sum by (%s) (\n  %s\n  * on (pool, capacity_type, resource) group_left ()\n  %s\n)",
			by, seriesPodGPURequests, seriesUnitPrice)),
		record(seriesTeamGPUHours, fmt.Sprintf("sum_over_time(%s[1h]) %s", seriesTeamGPUs, perHour)),
		record(seriesTeamCost, fmt.Sprintf("sum_over_time(%s[1h]) %s", seriesTeamCostPerHour, perHour)),
	}
}

// priceRules record each unit price of the pools: one constant series per pool, capacity type
// and resource.
func priceRules(pools map[string]map[string]poolSupply) []monitoringv1.Rule {
	var out []monitoringv1.Rule
	for _, pool := range slices.Sorted(maps.Keys(pools)) {
		for _, ct := range slices.Sorted(maps.Keys(pools[pool])) {
			prices := pools[pool][ct].HourlyPrice
			for _, res := range slices.Sorted(maps.Keys(prices)) {
				r := record(seriesUnitPrice, fmt.Sprintf("vector(%s)", formatFloat(prices[res])))
				r.Labels = map[string]string{"pool": pool, "capacity_type": ct, "resource": ksmResource(res)}
				out = append(out, r)
			}
		}
	}
	return out
}

// dcgmRules record dcgm-exporter's GPU metrics with the labels the billing series use.
func dcgmRules(c rulesConfig) []monitoringv1.Rule {
	return []monitoringv1.Rule{
		record(seriesGPUEngineActive, dcgmSeries(c, dcgmEngineActive)),
		record(seriesGPUMemoryUsed, dcgmSeries(c, fmt.Sprintf("%s / (%s + %s)", dcgmFBUsed, dcgmFBUsed, dcgmFBFree))),
		record(seriesGPUXIDErrors, dcgmSeries(c, dcgmXID)),
		// Temperature is the GPU's, whatever its MIG instances.
		record(seriesGPUTemperature, fmt.Sprintf("max by (node, gpu, gpu_model, pool, capacity_type) (\n  %s\n  * on (node) group_left (pool, capacity_type) %s\n)",
			dcgmLabels(c, dcgmTemperature), seriesNodePool)),
	}
}

// dcgmLabels renames dcgm-exporter's labels to the series' and keeps only those.
func dcgmLabels(c rulesConfig, expr string) string {
	for _, r := range [][2]string{{"node", c.DCGMNodeLabel}, {"namespace", c.DCGMNamespaceLabel}, {"pod", c.DCGMPodLabel}, {"gpu_model", dcgmModel}, {"mig_profile", dcgmMIGProfile}, {"mig_instance", dcgmMIGInstance}} {
		expr = relabel(expr, r[0], r[1])
	}
	return "max by (node, gpu, gpu_model, mig_profile, mig_instance, namespace, pod) (" + expr + ")"
}

// dcgmSeries adds the pool of the node and, for a GPU a pod holds, its team and project (a left
// join: a GPU no pod holds keeps its series).
func dcgmSeries(c rulesConfig, expr string) string {
	placed := fmt.Sprintf("(%s * on (node) group_left (pool, capacity_type) %s)", dcgmLabels(c, expr), seriesNodePool)
	return fmt.Sprintf("%s\n* on (namespace, pod) group_left (team, project) %s\nor on (node, gpu, mig_instance)\n%s",
		placed, seriesPodOwner, placed)
}

func kueueRules() []monitoringv1.Rule {
	sel := "{" + kueueNotFollower + "}"
	return []monitoringv1.Rule{
		record(seriesQueuePending, fmt.Sprintf("sum by (cluster_queue, status) (%s%s)", kueuePending, sel)),
		record(seriesQueueAdmitted, fmt.Sprintf("sum by (cluster_queue) (%s%s)", kueueAdmittedNow, sel)),
		// Without admissions in the window the quantile is NaN: not recorded (NaN >= 0 is false).
		record(seriesQueueAdmissionWaitP95, fmt.Sprintf("histogram_quantile(0.95, sum by (cluster_queue, le) (rate(%s_bucket%s[%s]))) >= 0",
			kueueAdmissionWait, sel, waitWindow)),
		record(seriesQueueQuotaUsed, fmt.Sprintf("sum by (cluster_queue, flavor, resource) (%s%s)\n/\n(sum by (cluster_queue, flavor, resource) (%s%s) > 0)",
			kueueUsage, sel, kueueNominalQuota, sel)),
	}
}

func alertRules(c rulesConfig) []monitoringv1.Rule {
	alert := func(name, expr, forDuration, summary, description string) monitoringv1.Rule {
		r := monitoringv1.Rule{Alert: name, Expr: intstr.FromString(expr), Labels: c.AlertLabels,
			Annotations: map[string]string{"summary": summary, "description": description}}
		if forDuration != "" {
			d := monitoringv1.Duration(forDuration)
			r.For = &d
		}
		return r
	}
	gpu := "GPU {{ $labels.gpu }}{{ with $labels.mig_profile }} (MIG {{ . }}){{ end }} on node {{ $labels.node }}"
	holder := "{{ with $labels.pod }} held by pod {{ $labels.namespace }}/{{ . }}{{ end }}"
	return []monitoringv1.Rule{
		alert(alertGPUMemory, fmt.Sprintf("%s > %s", seriesGPUMemoryUsed, formatFloat(c.GPUMemoryRatio)), gpuMemoryFor,
			"GPU memory almost full",
			gpu+holder+" has used {{ $value | humanizePercentage }} of its memory for "+gpuMemoryFor+"; the next allocation may fail with out of memory."),
		alert(alertGPUIdle, fmt.Sprintf(`%s{pod!=""} < %s`, seriesGPUEngineActive, formatFloat(gpuIdleRatio)), c.GPUIdleFor,
			"Allocated GPU idle",
			gpu+holder+" has been idle (graphics engine active under 1%) for "+c.GPUIdleFor+" while allocated: it is paid for and nobody else can use it."),
		alert(alertGPUXID, seriesGPUXIDErrors+" > 0", "",
			"GPU XID error",
			gpu+holder+" reported XID error {{ $value }}; see NVIDIA's XID catalogue: the GPU may need a reset or the node a drain."),
		alert(alertAdmissionWait, admissionWaitExpr(c), "",
			"Kueue admission wait above SLO",
			"ClusterQueue {{ $labels.cluster_queue }}: 95% of the workloads admitted over the last "+waitWindow+" waited up to {{ printf \"%.0f\" $value }}s, above the queue's SLO."),
		alert(alertPending, fmt.Sprintf("sum by (cluster_queue) (%s) > 0\nunless on (cluster_queue)\nsum by (cluster_queue) (increase(%s{%s}[%s])) > 0",
			seriesQueuePending, kueueAdmittedTotal, kueueNotFollower, c.PendingFor), c.PendingFor,
			"Workloads pending",
			"ClusterQueue {{ $labels.cluster_queue }} has held {{ $value }} pending workloads for "+c.PendingFor+" and admitted none."),
		alert(alertQueueInactive, fmt.Sprintf(`max by (cluster_queue, status) (%s{status!="active", %s}) == 1`, kueueQueueStatus, kueueNotFollower),
			c.QueueInactiveFor,
			"ClusterQueue inactive",
			"ClusterQueue {{ $labels.cluster_queue }} has been {{ $labels.status }} for "+c.QueueInactiveFor+
				": it admits nothing (a missing flavor or admission check, stopped, or being deleted)."),
	}
}

// admissionWaitExpr compares each queue's p95 with its SLO: the queues named in the per-queue map
// with theirs, every other with the default.
func admissionWaitExpr(c rulesConfig) string {
	queues := slices.Sorted(maps.Keys(c.AdmissionWaitSLOQueue))
	var terms []string
	for _, q := range queues {
		terms = append(terms, fmt.Sprintf("%s{cluster_queue=%q} > %s", seriesQueueAdmissionWaitP95, q, seconds(c.AdmissionWaitSLOQueue[q])))
	}
	others := seriesQueueAdmissionWaitP95
	if len(queues) > 0 {
		others += fmt.Sprintf("{cluster_queue!~%q}", alternatives(queues))
	}
	terms = append(terms, others+" > "+seconds(c.AdmissionWaitSLO))
	return strings.Join(terms, "\nor\n")
}

// seconds is a Prometheus duration (already validated) in seconds.
func seconds(d string) string {
	v, _ := model.ParseDuration(d)
	return formatFloat(time.Duration(v).Seconds())
}

// alternatives is an anchored regular expression matching exactly the given values.
func alternatives(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = regexp.QuoteMeta(v)
	}
	return strings.Join(q, "|")
}

// formatFloat is the shortest text that parses back to f.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
