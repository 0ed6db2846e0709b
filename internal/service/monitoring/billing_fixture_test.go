package monitoring_test

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

type monitoringPoolSupply = monitoring.PoolSupply

// billingDay is one synthetic day of a GPU platform, for promtool rule tests: the input_series of
// a promtool test group, sampled every billingInterval (also the rules' evaluation interval), from
// minute 0 to minute 1440. A sample at minute m stands for the minute before it, so the day is
// (0, 24h]. The series are shaped as Prometheus stores them when it scrapes kube-state-metrics
// (ServiceMonitor with honorLabels, as kube-prometheus-stack does), dcgm-exporter (the chart's
// ServiceMonitor, honorLabels false: the GPU's pod is in exported_pod) and Kueue v0.17.
//
// The day: three teams (namespaces nlp, vision, speech, each labelled mlplatform.io/team) on
// four nodes of two pools, a100 (whole A100-SXM4-80GB GPUs) and a100-mig (all-1g.10gb), each
// with a spot and an on-demand node, plus a system node of no pool.
//
//	nlp/bert-train-0     project bert     4 GPUs   a100 on-demand      running 00:00-08:00
//	nlp/bert-eval-0      project bert     1 1g.10gb a100-mig spot      pending 09:40-10:00, running 10:00-22:00
//	vision/resnet-sweep-1 project resnet  2 GPUs   a100 spot           pending 01:55-02:00, running 02:00-06:00, preempted (Failed)
//	vision/resnet-sweep-2 project resnet  2 GPUs   a100 spot           pending 06:00-09:00 (its retry), running 09:00-15:00
//	speech/whisper-ft-0  project whisper  3 1g.10gb a100-mig on-demand running all day
//	speech/asr-notebook-0 project asr     1 GPU    a100 on-demand      running 12:00-20:00, its GPU idle from 13:00
//
// GPU 0 of the a100 on-demand node uses 97.7% of its memory 03:00-04:00; GPU 1 of the a100 spot
// node reports XID 79 from 16:00. Kueue: the vision queue waits 3h for an admission (06:00-09:00),
// the nlp queue 20 minutes (09:40-10:00), and admits a CPU-only workload of vision's after 40 s at
// 16:27; the speech queue is pending (inactive) 20:00-21:00.
// Each queue has 8 whole GPUs or 14 1g.10gb slices of quota on each flavor its team's pods use.
//
// The dashboard's tests can run their queries on the same day: promtool's input_series take
// billingDay() as they are.
func billingDay() []inputSeries {
	d := newDay()
	d.nodes()
	d.namespaces()
	for _, p := range dayPods {
		d.pod(p)
	}
	d.gpus()
	d.kueue()
	d.quota()
	return d.series
}

// billingInterval is the day's sampling interval and the rules' evaluation interval.
const billingInterval = time.Minute

// inputSeries is one promtool input series.
type inputSeries struct {
	Series string `json:"series"`
	Values string `json:"values"`
}

const dayMinutes = 24 * 60

// Pools, nodes and prices of the day, as a GPU node pool's supplies give them.
const (
	priceA100OnDemand = 5.12 // USD per GPU-hour
	priceA100Spot     = 2.05
	gpuModelLabel     = "a100-sxm4-80gb"
	dcgmModelName     = "NVIDIA A100-SXM4-80GB"

	nodeA100OnDemand = "ip-10-0-1-11.ec2.internal"
	nodeA100Spot     = "ip-10-0-2-21.ec2.internal"
	nodeMIGOnDemand  = "ip-10-0-3-31.ec2.internal"
	nodeMIGSpot      = "ip-10-0-4-41.ec2.internal"
	nodeSystem       = "ip-10-0-0-5.ec2.internal"
)

// billingPools is the rules' pools input for the day: the supplies of two GPU node pools.
func billingPools() map[string]map[string]monitoringPoolSupply {
	supply := func(pool, ct, resource string, perGPU int64, price float64) monitoringPoolSupply {
		return monitoringPoolSupply{
			NodeLabels: map[string]string{
				"mlplatform.io/gpu": gpuModelLabel, "karpenter.sh/capacity-type": ct, "karpenter.sh/nodepool": pool + "-" + ct,
			},
			PerGPU:      map[string]int64{resource: perGPU},
			HourlyPrice: map[string]float64{resource: price},
		}
	}
	return map[string]map[string]monitoringPoolSupply{
		"a100": {
			"on-demand": supply("a100", "on-demand", "nvidia.com/gpu", 1, priceA100OnDemand),
			"spot":      supply("a100", "spot", "nvidia.com/gpu", 1, priceA100Spot),
		},
		"a100-mig": {
			"on-demand": supply("a100-mig", "on-demand", "nvidia.com/mig-1g.10gb", 7, priceA100OnDemand/7),
			"spot":      supply("a100-mig", "spot", "nvidia.com/mig-1g.10gb", 7, priceA100Spot/7),
		},
	}
}

// dayPod is one pod of the day. Minutes are sample times: the pod is pending (unscheduled, so
// kube-state-metrics gives its requests node="") at samples [created, running), running at
// [running, ended), then in endPhase for one sample before it is gone.
type dayPod struct {
	namespace, name, uid, project string
	node, resource                string
	units                         int
	created, running, ended       int
	endPhase                      string
}

func h(hours float64) int { return int(hours * 60) }

var dayPods = []dayPod{
	{"nlp", "bert-train-0", "0b6f1c0e-0001-4d2a-9c11-6f1d2a3b4c01", "bert", nodeA100OnDemand, "nvidia.com/gpu", 4, 1, 1, h(8) + 1, "Succeeded"},
	{"nlp", "bert-eval-0", "0b6f1c0e-0002-4d2a-9c11-6f1d2a3b4c02", "bert", nodeMIGSpot, "nvidia.com/mig-1g.10gb", 1, h(9.67) + 1, h(10) + 1, h(22) + 1, "Succeeded"},
	{"vision", "resnet-sweep-1", "0b6f1c0e-0003-4d2a-9c11-6f1d2a3b4c03", "resnet", nodeA100Spot, "nvidia.com/gpu", 2, h(1.92) + 1, h(2) + 1, h(6) + 1, "Failed"},
	{"vision", "resnet-sweep-2", "0b6f1c0e-0004-4d2a-9c11-6f1d2a3b4c04", "resnet", nodeA100Spot, "nvidia.com/gpu", 2, h(6) + 2, h(9) + 1, h(15) + 1, "Succeeded"},
	{"speech", "whisper-ft-0", "0b6f1c0e-0005-4d2a-9c11-6f1d2a3b4c05", "whisper", nodeMIGOnDemand, "nvidia.com/mig-1g.10gb", 3, 1, 1, dayMinutes + 1, ""},
	{"speech", "asr-notebook-0", "0b6f1c0e-0006-4d2a-9c11-6f1d2a3b4c06", "asr", nodeA100OnDemand, "nvidia.com/gpu", 1, h(12) + 1, h(12) + 1, h(20) + 1, "Succeeded"},
}

// day builds the series, one value per sample (nil: no sample).
type day struct{ series []inputSeries }

func newDay() *day { return &day{} }

// add records a series with the given labels whose value at minute m is v(m) (ok false: none).
// A series that stops gets a staleness marker, as a scrape that no longer finds it writes.
func (d *day) add(name string, labels map[string]string, v func(m int) (float64, bool)) {
	var tokens []string
	seen, last := false, false
	for m := 0; m <= dayMinutes; m++ {
		x, ok := v(m)
		switch {
		case ok:
			tokens = append(tokens, strconv.FormatFloat(x, 'g', -1, 64))
		case last:
			tokens = append(tokens, "stale")
		default:
			tokens = append(tokens, "_")
		}
		seen, last = seen || ok, ok
	}
	if !seen {
		return
	}
	d.series = append(d.series, inputSeries{Series: name + labelText(labels), Values: compress(tokens)})
}

// compress writes runs in promtool's notation: "v" once, "vxN" for N+1 values, "_xN" for N gaps.
func compress(tokens []string) string {
	var out []string
	for i := 0; i < len(tokens); {
		j := i
		for j < len(tokens) && tokens[j] == tokens[i] && tokens[i] != "stale" {
			j++
		}
		if j == i {
			j = i + 1
		}
		n := j - i
		switch {
		case n == 1:
			out = append(out, tokens[i])
		case tokens[i] == "_":
			out = append(out, fmt.Sprintf("_x%d", n))
		default:
			out = append(out, fmt.Sprintf("%sx%d", tokens[i], n-1))
		}
		i = j
	}
	return strings.Join(out, " ")
}

func labelText(labels map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, fmt.Sprintf("%s=%q", k, labels[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func with(base map[string]string, kv ...string) map[string]string {
	out := maps.Clone(base)
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func always(x float64) func(int) (float64, bool) {
	return func(m int) (float64, bool) { return x, m >= 1 }
}

func between(from, to int, x float64) func(int) (float64, bool) {
	return func(m int) (float64, bool) { return x, m >= from && m < to }
}

// kube-state-metrics' own labels as the ServiceMonitor adds them; an object's own namespace and
// pod win (honorLabels).
var ksm = map[string]string{
	"job": "kube-state-metrics", "instance": "10.0.0.50:8080", "endpoint": "http", "service": "kube-state-metrics",
	"container": "kube-state-metrics", "namespace": "monitoring", "pod": "kube-state-metrics-6d4f8b7c9d-x2x7q",
}

func (d *day) nodes() {
	pool := func(node, nodepool, ct string) {
		d.add("kube_node_labels", with(ksm, "node", node, "label_karpenter_sh_nodepool", nodepool,
			"label_karpenter_sh_capacity_type", ct, "label_mlplatform_io_gpu", gpuModelLabel), always(1))
	}
	pool(nodeA100OnDemand, "a100-on-demand", "on-demand")
	pool(nodeA100Spot, "a100-spot", "spot")
	pool(nodeMIGOnDemand, "a100-mig-on-demand", "on-demand")
	pool(nodeMIGSpot, "a100-mig-spot", "spot")
	d.add("kube_node_labels", with(ksm, "node", nodeSystem, "label_karpenter_sh_nodepool", "system",
		"label_karpenter_sh_capacity_type", "on-demand"), always(1))
}

func (d *day) namespaces() {
	for _, team := range []string{"nlp", "vision", "speech"} {
		d.add("kube_namespace_labels", with(ksm, "namespace", team, "label_mlplatform_io_team", team), always(1))
	}
	d.add("kube_namespace_labels", with(ksm, "namespace", "kube-system"), always(1))
}

func (d *day) pod(p dayPod) {
	gone := p.ended + 1
	if p.endPhase == "" {
		gone = p.ended
	}
	own := with(ksm, "namespace", p.namespace, "pod", p.name, "uid", p.uid)
	d.add("kube_pod_labels", with(own, "label_mlplatform_io_project", p.project), between(p.created, gone, 1))
	for _, phase := range []string{"Pending", "Running", "Succeeded", "Failed", "Unknown"} {
		d.add("kube_pod_status_phase", with(own, "phase", phase), func(m int) (float64, bool) {
			if m < p.created || m >= gone {
				return 0, false
			}
			var now string
			switch {
			case m < p.running:
				now = "Pending"
			case m < p.ended:
				now = "Running"
			default:
				now = p.endPhase
			}
			if now == phase {
				return 1, true
			}
			return 0, true
		})
	}
	requests := with(own, "container", "trainer", "resource", strings.NewReplacer(".", "_", "/", "_", "-", "_").Replace(p.resource), "unit", "integer")
	d.add("kube_pod_container_resource_requests", with(requests, "node", ""), between(p.created, p.running, float64(p.units)))
	d.add("kube_pod_container_resource_requests", with(requests, "node", p.node), between(p.running, gone, float64(p.units)))
}

// dcgm-exporter's labels on one node, as the chart's ServiceMonitor (honorLabels false) leaves
// them: the exporter's own pod is namespace/pod, the GPU's in exported_*.
func dcgmBase(node, exporterPod, instance string) map[string]string {
	return map[string]string{
		"job": "nvidia-dcgm-exporter", "instance": instance, "endpoint": "metrics", "service": "nvidia-dcgm-exporter",
		"namespace": "gpu-operator", "pod": exporterPod, "container": "nvidia-dcgm-exporter",
		"Hostname": node, "modelName": dcgmModelName, "DCGM_FI_DRIVER_VERSION": "570.172.08",
	}
}

// gpuEntity is one GPU or MIG instance and who holds it when.
type gpuEntity struct {
	labels map[string]string
	holds  []hold
	// Values per minute; nil: the field's default below.
	engine, fbUsed, xid func(m int) float64
}

type hold struct {
	pod      dayPod
	from, to int // samples
}

func (d *day) gpus() {
	gpu := func(node, exporterPod, instance string, index int) map[string]string {
		return with(dcgmBase(node, exporterPod, instance), "gpu", strconv.Itoa(index),
			"UUID", fmt.Sprintf("GPU-%08x-7a1e-4c6b-9f3d-%012x", index, len(node)), "device", "nvidia"+strconv.Itoa(index),
			"pci_bus_id", fmt.Sprintf("00000000:%02X:00.0", 0x10+index))
	}
	mig := func(base map[string]string, id int) map[string]string {
		return with(base, "GPU_I_PROFILE", "1g.10gb", "GPU_I_ID", strconv.Itoa(id))
	}
	odPod, spotPod := "nvidia-dcgm-exporter-8x2kd", "nvidia-dcgm-exporter-q7w4m"
	migOD, migSpot := "nvidia-dcgm-exporter-t5n9c", "nvidia-dcgm-exporter-b3v6h"
	bert, notebook, sweep1, sweep2 := dayPods[0], dayPods[5], dayPods[2], dayPods[3]
	eval, whisper := dayPods[1], dayPods[4]
	entities := []gpuEntity{
		{labels: gpu(nodeA100OnDemand, odPod, "10.0.1.11:9400", 0), holds: []hold{{bert, bert.running, bert.ended}},
			engine: busyWhile(bert.running, bert.ended, 0.92),
			fbUsed: func(m int) float64 {
				if m >= h(3)+1 && m <= h(4) {
					return 80000 // of 81920 MiB: 97.7%
				}
				return 41000
			}},
		// Held by the notebook, whose user left at 13:00: idle from then on.
		{labels: gpu(nodeA100OnDemand, odPod, "10.0.1.11:9400", 4), holds: []hold{{notebook, notebook.running, notebook.ended}},
			engine: busyWhile(notebook.running, h(13)+1, 0.35)},
		// Nobody's, idle all day: not an alert.
		{labels: gpu(nodeA100OnDemand, odPod, "10.0.1.11:9400", 5)},
		{labels: gpu(nodeA100Spot, spotPod, "10.0.2.21:9400", 1),
			holds: []hold{{sweep1, sweep1.running, sweep1.ended}, {sweep2, sweep2.running, sweep2.ended}},
			engine: func(m int) float64 {
				return max(busyWhile(sweep1.running, sweep1.ended, 0.8)(m), busyWhile(sweep2.running, sweep2.ended, 0.8)(m))
			},
			xid: func(m int) float64 {
				if m >= h(16)+1 {
					return 79 // GPU has fallen off the bus
				}
				return 0
			}},
		{labels: mig(gpu(nodeMIGOnDemand, migOD, "10.0.3.31:9400", 0), 7), holds: []hold{{whisper, 1, dayMinutes + 1}}, engine: busyWhile(1, dayMinutes+1, 0.55)},
		{labels: mig(gpu(nodeMIGOnDemand, migOD, "10.0.3.31:9400", 0), 8), holds: []hold{{whisper, 1, dayMinutes + 1}}, engine: busyWhile(1, dayMinutes+1, 0.55)},
		{labels: mig(gpu(nodeMIGOnDemand, migOD, "10.0.3.31:9400", 0), 9), holds: []hold{{whisper, 1, dayMinutes + 1}}, engine: busyWhile(1, dayMinutes+1, 0.55)},
		{labels: mig(gpu(nodeMIGOnDemand, migOD, "10.0.3.31:9400", 0), 10)},
		// The eval job pauses for 30 minutes: idle, but not for an hour.
		{labels: mig(gpu(nodeMIGSpot, migSpot, "10.0.4.41:9400", 0), 7), holds: []hold{{eval, eval.running, eval.ended}},
			engine: func(m int) float64 {
				if m >= h(16.5)+1 && m <= h(17) {
					return 0
				}
				return busyWhile(eval.running, eval.ended, 0.7)(m)
			}},
	}
	for _, e := range entities {
		d.gpu(e)
	}
}

func busyWhile(from, to int, x float64) func(int) float64 {
	return func(m int) float64 {
		if m >= from && m < to {
			return x
		}
		return 0
	}
}

// gpu adds the fields of one GPU or MIG instance, one series per holder and one for the time
// nobody holds it (dcgm-exporter drops the pod labels when the pod goes).
func (d *day) gpu(e gpuEntity) {
	field := func(f func(int) float64, def float64) func(int) float64 {
		if f == nil {
			return func(int) float64 { return def }
		}
		return f
	}
	engine, fbUsed, xid := field(e.engine, 0), field(e.fbUsed, 2000), field(e.xid, 0)
	_, isMIG := e.labels["GPU_I_ID"]
	total := 81920.0
	if isMIG {
		total = 9856 // a 1g.10gb instance's frame buffer, MiB
		fbUsed = field(e.fbUsed, 1200)
	}
	whose := func(m int) *hold {
		for i := range e.holds {
			if m >= e.holds[i].from && m < e.holds[i].to {
				return &e.holds[i]
			}
		}
		return nil
	}
	segments := []*hold{nil}
	for i := range e.holds {
		segments = append(segments, &e.holds[i])
	}
	for _, seg := range segments {
		labels := e.labels
		if seg != nil {
			labels = with(labels, "exported_namespace", seg.pod.namespace, "exported_pod", seg.pod.name, "exported_container", "trainer")
		}
		in := func(f func(int) float64) func(int) (float64, bool) {
			return func(m int) (float64, bool) { return f(m), m >= 1 && whose(m) == seg }
		}
		d.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, in(engine))
		d.add("DCGM_FI_DEV_FB_USED", labels, in(fbUsed))
		d.add("DCGM_FI_DEV_FB_FREE", labels, in(func(m int) float64 { return total - fbUsed(m) }))
		d.add("DCGM_FI_DEV_XID_ERRORS", labels, in(xid))
		d.add("DCGM_FI_DEV_GPU_TEMP", labels, in(func(m int) float64 { return 38 + 30*engine(m) }))
	}
}

// Kueue's controller manager as its ServiceMonitor scrapes it.
var kueueBase = map[string]string{
	"job": "kueue-controller-manager-metrics-service", "instance": "10.0.0.60:8443", "endpoint": "https",
	"service": "kueue-controller-manager-metrics-service", "namespace": "kueue-system",
	"pod": "kueue-controller-manager-7b9c6d5f4-lk2pq", "container": "manager", "replica_role": "leader",
}

// kueueBuckets are kueue_admission_wait_time_seconds' upper bounds (pkg/metrics:
// generateExponentialBuckets(16): 1, then 2.5 doubling).
var kueueBuckets = func() []float64 {
	out := []float64{1}
	for b := 2.5; len(out) < 16; b *= 2 {
		out = append(out, b)
	}
	return out
}()

// admission is one workload admitted: when (sample) and after how long a wait.
type admission struct {
	at   int
	wait float64
}

func (d *day) kueue() {
	vision, nlp := dayPods[2:4], dayPods[0:2]
	// Pending: from the pod's creation to its admission (when it starts running here).
	pending := func(pods []dayPod) func(int) (float64, bool) {
		return func(m int) (float64, bool) {
			n := 0
			for _, p := range pods {
				if m >= p.created && m < p.running {
					n++
				}
			}
			return float64(n), m >= 1
		}
	}
	queues := []struct {
		name       string
		pods       []dayPod
		before     int // admissions before the day (30 s waits)
		admissions []admission
	}{
		{"nlp-queue", nlp, 5, []admission{{nlp[1].running, 1200}}},
		// At 16:27 a CPU-only evaluation workload is admitted after 40 s (no GPU: not billed).
		{"vision-queue", vision, 4, []admission{{vision[0].running, 300}, {vision[1].running, 10800}, {h(16) + 27, 40}}},
		{"speech-queue", nil, 2, nil},
	}
	for _, q := range queues {
		cq := with(kueueBase, "cluster_queue", q.name)
		d.add("kueue_pending_workloads", with(cq, "status", "active"), pending(q.pods))
		d.add("kueue_pending_workloads", with(cq, "status", "inadmissible"), always(0))
		d.add("kueue_admitted_active_workloads", cq, func(m int) (float64, bool) {
			n := 0
			for _, p := range q.pods {
				if m >= p.running && m < p.ended {
					n++
				}
			}
			return float64(n), m >= 1
		})
		admitted := func(m int) int {
			n := q.before
			for _, a := range q.admissions {
				if m >= a.at {
					n++
				}
			}
			return n
		}
		byClass := with(cq, "priority_class", "training-normal")
		d.add("kueue_admitted_workloads_total", byClass, func(m int) (float64, bool) { return float64(admitted(m)), m >= 1 })
		observed := func(m int, le float64) (count int, sum float64) {
			for i := 0; i < q.before; i++ {
				if 30 <= le {
					count++
				}
				sum += 30
			}
			for _, a := range q.admissions {
				if m >= a.at {
					if a.wait <= le {
						count++
					}
					sum += a.wait
				}
			}
			return count, sum
		}
		for _, le := range append(slices.Clone(kueueBuckets), inf) {
			d.add("kueue_admission_wait_time_seconds_bucket", with(byClass, "le", leText(le)), func(m int) (float64, bool) {
				n, _ := observed(m, le)
				return float64(n), m >= 1
			})
		}
		d.add("kueue_admission_wait_time_seconds_count", byClass, func(m int) (float64, bool) {
			n, _ := observed(m, inf)
			return float64(n), m >= 1
		})
		d.add("kueue_admission_wait_time_seconds_sum", byClass, func(m int) (float64, bool) {
			_, s := observed(m, inf)
			return s, m >= 1
		})
		// The speech queue is pending 20:00-21:00 (its flavor was deleted and re-created).
		for _, status := range []string{"pending", "active", "terminating"} {
			d.add("kueue_cluster_queue_status", with(cq, "status", status), func(m int) (float64, bool) {
				now := "active"
				if q.name == "speech-queue" && m >= h(20)+1 && m <= h(21) {
					now = "pending"
				}
				if now == status {
					return 1, m >= 1
				}
				return 0, m >= 1
			})
		}
	}
}

// quota adds each queue's nominal quota and usage (kueue_cluster_queue_nominal_quota and
// kueue_cluster_queue_resource_usage) per flavor and resource its team's pods use: flavors named
// like the pools' NodePools, 8 whole GPUs or 14 1g.10gb slices each, used by the running pods.
func (d *day) quota() {
	flavorOf := map[string]string{nodeA100OnDemand: "a100-on-demand", nodeA100Spot: "a100-spot",
		nodeMIGOnDemand: "a100-mig-on-demand", nodeMIGSpot: "a100-mig-spot"}
	nominal := map[string]float64{"nvidia.com/gpu": 8, "nvidia.com/mig-1g.10gb": 14}
	type key struct{ queue, flavor, resource string }
	var keys []key
	for _, p := range dayPods {
		k := key{p.namespace + "-queue", flavorOf[p.node], p.resource}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		labels := with(with(with(with(kueueBase, "cohort", "training"), "cluster_queue", k.queue), "flavor", k.flavor), "resource", k.resource)
		d.add("kueue_cluster_queue_nominal_quota", labels, always(nominal[k.resource]))
		d.add("kueue_cluster_queue_resource_usage", labels, func(m int) (float64, bool) {
			used := 0
			for _, p := range dayPods {
				if p.namespace+"-queue" == k.queue && flavorOf[p.node] == k.flavor && p.resource == k.resource && m >= p.running && m < p.ended {
					used += p.units
				}
			}
			return float64(used), m >= 1
		})
	}
}

var inf = func() float64 { f, _ := strconv.ParseFloat("+Inf", 64); return f }()

func leText(le float64) string {
	if le == inf {
		return "+Inf"
	}
	return strconv.FormatFloat(le, 'g', -1, 64)
}
