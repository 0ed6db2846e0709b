package monitoring_test

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

// billingConfig is the rules' configuration for the day: the attributes' defaults, the day's
// pools, and a longer admission SLO for the nlp queue.
func billingConfig() monitoring.RulesConfig {
	return monitoring.RulesConfig{
		Interval: "1m", TeamLabel: "mlplatform.io/team", ProjectLabel: "mlplatform.io/project",
		DCGMNamespaceLabel: "exported_namespace", DCGMPodLabel: "exported_pod", DCGMNodeLabel: "Hostname",
		Pools: billingPools(), GPUMemoryRatio: 0.95, GPUIdleFor: "1h", PendingFor: "1h", AdmissionWaitSLO: "10m",
		AdmissionWaitSLOQueue: map[string]string{"nlp-queue": "30m"}, QueueInactiveFor: "10m",
		AlertLabels: map[string]string{"severity": "warning"},
	}
}

// cents is x rounded to the cent, as PromQL's round(x, 0.01) gives it.
func cents(x float64) float64 { return math.Floor(x*100+0.5) / 100 }

// The bill of the day, computed by hand from billingDay's pods (hours x units x share or price).
var (
	gpuHours = map[string]float64{
		// bert-train-0: 4 GPUs x 8 h; bert-eval-0: one 1g.10gb (1/7 GPU) x 12 h.
		"nlp": 4*8 + 1*12.0/7,
		// resnet-sweep-1: 2 GPUs x 4 h until preempted; its retry resnet-sweep-2: 2 GPUs x 6 h. The
		// 3 h the retry waited, and the minute the preempted pod was Failed, are not billed.
		"vision": 2*4 + 2*6,
		// whisper-ft-0: three 1g.10gb x 24 h; asr-notebook-0: 1 GPU x 8 h, idle or not.
		"speech": 3*24.0/7 + 1*8,
	}
	cost = map[string]float64{
		"nlp":    4*8*5.12 + 1*12*(2.05/7),
		"vision": (2*4 + 2*6) * 2.05,
		"speech": 3*24*(5.12/7) + 1*8*5.12,
	}
)

// TestGPUBillingRules_promtool runs the rules the resource writes through Prometheus's own engine
// (promtool test rules) on billingDay: the bill per team to the cent, and each alert on its case.
func TestGPUBillingRules_promtool(t *testing.T) {
	promtool := promtoolPath(t)
	spec, err := monitoring.RenderRules(billingConfig())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeYAML(t, filepath.Join(dir, "rules.yaml"), spec)

	var bill []promqlTest
	hours, usd := sample{}, sample{}
	for team := range gpuHours {
		hours.add(`{team="`+team+`"}`, cents(gpuHours[team]))
		usd.add(`{team="`+team+`"}`, cents(cost[team]))
	}
	t.Logf("GPU-hours per team: %v; USD per team: %v", hours, usd)
	bill = append(bill,
		promqlTest{"round(sum by (team) (sum_over_time(mlplatform:team_gpu_hours:1h[1d:1h])), 0.01)", "24h", hours.samples()},
		promqlTest{"round(sum by (team) (sum_over_time(mlplatform:team_cost_usd:1h[1d:1h])), 0.01)", "24h", usd.samples()},
	)
	test := map[string]any{
		"rule_files":          []string{"rules.yaml"},
		"evaluation_interval": "1m",
		"tests": []map[string]any{{
			"name":             "billing day",
			"interval":         billingInterval.String(),
			"input_series":     billingDay(),
			"promql_expr_test": append(bill, seriesTests()...),
			"alert_rule_test":  alertTests(),
		}},
	}
	writeYAML(t, filepath.Join(dir, "test.yaml"), test)
	start := time.Now()
	out, err := exec.Command(promtool, "test", "rules", filepath.Join(dir, "test.yaml")).CombinedOutput()
	t.Logf("promtool test rules took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
}

type promqlTest struct {
	Expr       string      `json:"expr"`
	EvalTime   string      `json:"eval_time"`
	ExpSamples []expSample `json:"exp_samples"`
}

type expSample struct {
	Labels string  `json:"labels"`
	Value  float64 `json:"value"`
}

type sample map[string]float64

func (s sample) add(labels string, v float64) { s[labels] = v }

func (s sample) samples() []expSample {
	out := []expSample{}
	for l, v := range s {
		out = append(out, expSample{l, v})
	}
	return out
}

// seriesTests check the recorded series' labels and what counts: a MIG slice as its share, only
// running pods, the per-queue wait.
func seriesTests() []promqlTest {
	return []promqlTest{
		{`mlplatform:pod_gpus{namespace="nlp"}`, "10h30m", []expSample{{
			`mlplatform:pod_gpus{namespace="nlp", pod="bert-eval-0", node="` + nodeMIGSpot + `", resource="nvidia_com_mig_1g_10gb", ` +
				`team="nlp", project="bert", pool="a100-mig", capacity_type="spot"}`, 1.0 / 7}}},
		{`mlplatform:team_gpus{team="speech"}`, "12h30m", []expSample{
			{`mlplatform:team_gpus{team="speech", project="whisper", namespace="speech", pool="a100-mig", capacity_type="on-demand"}`, 3.0 / 7},
			{`mlplatform:team_gpus{team="speech", project="asr", namespace="speech", pool="a100", capacity_type="on-demand"}`, 1}}},
		// The preempted pod's Failed minute, and its retry while it waits for admission: nothing.
		{`mlplatform:pod_gpu_requests{namespace="vision"}`, "6h1m", []expSample{}},
		{`mlplatform:pod_gpu_requests{namespace="vision"}`, "7h", []expSample{}},
		{`mlplatform:gpu_unit_price_usd_per_hour{pool="a100", capacity_type="spot"}`, "1h", []expSample{
			{`mlplatform:gpu_unit_price_usd_per_hour{pool="a100", capacity_type="spot", resource="nvidia_com_gpu"}`, priceA100Spot}}},
		// One 1200 s wait in (640, 1280]: p95 = 640 + 0.95 x 640.
		{`round(mlplatform:queue_admission_wait_seconds:p95{cluster_queue="nlp-queue"})`, "10h3m", []expSample{{`{cluster_queue="nlp-queue"}`, 1248}}},
	}
}

type alertTest struct {
	EvalTime  string     `json:"eval_time"`
	Alertname string     `json:"alertname"`
	ExpAlerts []expAlert `json:"exp_alerts"`
}

type expAlert struct {
	ExpLabels      map[string]string `json:"exp_labels"`
	ExpAnnotations map[string]string `json:"exp_annotations"`
}

// alertTests: each alert fires on its case of the day, and is quiet before, after, and on the
// cases that look like it but are not.
func alertTests() []alertTest {
	quiet := func(name string, at ...string) []alertTest {
		var out []alertTest
		for _, a := range at {
			out = append(out, alertTest{a, name, []expAlert{}})
		}
		return out
	}
	fires := func(name, at string, labels map[string]string, summary, description string) alertTest {
		return alertTest{at, name, []expAlert{{with(labels, "severity", "warning"), map[string]string{"summary": summary, "description": description}}}}
	}
	gpu := func(node, index, pool, ct string) map[string]string {
		return map[string]string{"node": node, "gpu": index, "gpu_model": dcgmModelName, "pool": pool, "capacity_type": ct}
	}
	var out []alertTest
	// GPU 0 of bert-train-0 at 97.7% from 03:00 to 04:00; fires after 5 minutes.
	out = append(out, fires("MLPlatformGPUMemoryAlmostFull", "3h30m",
		with(gpu(nodeA100OnDemand, "0", "a100", "on-demand"), "namespace", "nlp", "pod", "bert-train-0", "team", "nlp", "project", "bert"),
		"GPU memory almost full",
		"GPU 0 on node "+nodeA100OnDemand+" held by pod nlp/bert-train-0 has used 97.66% of its memory for 5m; the next allocation may fail with out of memory."))
	out = append(out, quiet("MLPlatformGPUMemoryAlmostFull", "2h30m", "3h3m", "4h30m")...)
	// The notebook's GPU, idle from 13:00 while held: fires at 14:00; the unheld GPU 5 and MIG
	// instance 10, idle all day, never; bert-eval-0's 30-minute pause (16:30-17:00) neither.
	for _, at := range []string{"14h5m", "16h59m"} {
		out = append(out, fires("MLPlatformAllocatedGPUIdle", at,
			with(gpu(nodeA100OnDemand, "4", "a100", "on-demand"), "namespace", "speech", "pod", "asr-notebook-0", "team", "speech", "project", "asr"),
			"Allocated GPU idle",
			"GPU 4 on node "+nodeA100OnDemand+" held by pod speech/asr-notebook-0 has been idle (graphics engine active under 1%) for 1h while allocated: it is paid for and nobody else can use it."))
	}
	out = append(out, quiet("MLPlatformAllocatedGPUIdle", "6h", "13h55m", "20h30m")...)
	out = append(out, fires("MLPlatformGPUXIDError", "16h30m", gpu(nodeA100Spot, "1", "a100", "spot"),
		"GPU XID error",
		"GPU 1 on node "+nodeA100Spot+" reported XID error 79; see NVIDIA's XID catalogue: the GPU may need a reset or the node a drain."))
	out = append(out, quiet("MLPlatformGPUXIDError", "15h59m")...)
	// resnet-sweep-2 admitted after 3 h: one wait in (10240, 20480], p95 = 10240 + 0.95 x 10240,
	// above the default SLO. nlp-queue's 1248 s is above the default but under its own 30m, and
	// vision-queue's first wait of 300 s under the default.
	out = append(out, fires("MLPlatformAdmissionWaitAboveSLO", "9h3m", map[string]string{"cluster_queue": "vision-queue"},
		"Kueue admission wait above SLO",
		"ClusterQueue vision-queue: 95% of the workloads admitted over the last 5m waited up to 19968s, above the queue's SLO."))
	out = append(out, quiet("MLPlatformAdmissionWaitAboveSLO", "2h3m", "8h59m", "9h10m", "10h3m")...)
	// resnet-sweep-2 pending from 06:01 with no admission: fires an hour later; nlp's 20 minutes do not.
	out = append(out, fires("MLPlatformWorkloadsPending", "7h30m", map[string]string{"cluster_queue": "vision-queue"},
		"Workloads pending",
		"ClusterQueue vision-queue has held 1 pending workloads for 1h and admitted none."))
	out = append(out, quiet("MLPlatformWorkloadsPending", "2h", "6h50m", "9h30m", "9h59m")...)
	out = append(out, fires("MLPlatformClusterQueueInactive", "20h30m", map[string]string{"cluster_queue": "speech-queue", "status": "pending"},
		"ClusterQueue inactive",
		"ClusterQueue speech-queue has been pending for 10m: it admits nothing (a missing flavor or admission check, stopped, or being deleted)."))
	out = append(out, quiet("MLPlatformClusterQueueInactive", "20h5m", "21h30m")...)
	return out
}

func writeYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
