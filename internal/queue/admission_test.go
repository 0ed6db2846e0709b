package queue_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

func flavor(name string, labels map[string]string, taints ...corev1.Taint) *kueue.ResourceFlavor {
	return &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: kueue.ResourceFlavorSpec{NodeLabels: labels, NodeTaints: taints}}
}

func quotas(name string, gpu, cpu, memory string, borrow string) kueue.FlavorQuotas {
	fq := kueue.FlavorQuotas{Name: kueue.ResourceFlavorReference(name)}
	for _, r := range []struct{ name, q string }{{"nvidia.com/gpu", gpu}, {"cpu", cpu}, {"memory", memory}} {
		rq := kueue.ResourceQuota{Name: corev1.ResourceName(r.name), NominalQuota: resource.MustParse(r.q)}
		if borrow != "" && r.name == "nvidia.com/gpu" {
			b := resource.MustParse(borrow)
			rq.BorrowingLimit = &b
		}
		fq.Resources = append(fq.Resources, rq)
	}
	return fq
}

func clusterQueue(cohort string, flavors ...kueue.FlavorQuotas) *kueue.ClusterQueue {
	return &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "nlp"}, Spec: kueue.ClusterQueueSpec{
		CohortName: kueue.CohortReference(cohort),
		ResourceGroups: []kueue.ResourceGroup{{
			CoveredResources: []corev1.ResourceName{"nvidia.com/gpu", "cpu", "memory"},
			Flavors:          flavors,
		}},
	}}
}

var gpuTaint = corev1.Taint{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}

func pod(capacity string, gpus, cpu, memory string) queue.Pod {
	p := queue.Pod{
		NodeSelector: map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb"},
		Tolerations:  []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
		Requests: corev1.ResourceList{"cpu": resource.MustParse(cpu), "memory": resource.MustParse(memory),
			"nvidia.com/gpu": resource.MustParse(gpus)},
	}
	if capacity != "" {
		p.NodeSelector["karpenter.sh/capacity-type"] = capacity
	}
	return p
}

func TestCheck(t *testing.T) {
	flavors := map[string]*kueue.ResourceFlavor{
		"a100-spot":      flavor("a100-spot", map[string]string{"karpenter.sh/capacity-type": "spot"}, gpuTaint),
		"a100-on-demand": flavor("a100-on-demand", map[string]string{"karpenter.sh/capacity-type": "on-demand"}, gpuTaint),
		"h100-spot": flavor("h100-spot", map[string]string{"karpenter.sh/capacity-type": "spot", "mlplatform.io/gpu": "h100-sxm5-80gb"},
			gpuTaint),
	}
	both := clusterQueue("", quotas("a100-on-demand", "4", "32", "256Gi", ""), quotas("a100-spot", "8", "64", "512Gi", ""))
	for _, tc := range []struct {
		name   string
		pod    queue.Pod
		cq     *kueue.ClusterQueue
		cause  queue.Cause
		res    corev1.ResourceName
		detail []string // substrings; none means admissible
	}{
		{name: "fits the first flavor", pod: pod("", "1", "8", "128Gi"), cq: both},
		{name: "only the second flavor is big enough", pod: pod("", "6", "8", "128Gi"), cq: both},
		{name: "spot selects the spot flavor", pod: pod("spot", "8", "8", "128Gi"), cq: both},
		{
			name: "more GPUs than any flavor's nominal quota", pod: pod("", "9", "8", "128Gi"), cq: both,
			cause: queue.ExceedsQuota, res: "nvidia.com/gpu",
			detail: []string{"one pod requests 9 nvidia.com/gpu, but flavor a100-on-demand gives at most 4 (nominal quota 4, no cohort to borrow from)",
				"flavor a100-spot gives at most 8"},
		},
		{
			name: "the borrowing limit counts in a cohort", pod: pod("", "6", "8", "128Gi"),
			cq: clusterQueue("training", quotas("a100-on-demand", "4", "32", "256Gi", "2")),
		},
		{
			name: "beyond nominal plus borrowing limit", pod: pod("", "7", "8", "128Gi"),
			cq:    clusterQueue("training", quotas("a100-on-demand", "4", "32", "256Gi", "2")),
			cause: queue.ExceedsQuota, res: "nvidia.com/gpu", detail: []string{"gives at most 6 (nominal quota 4 plus borrowing limit 2)"},
		},
		{
			name: "borrowing without a limit is not bounded by the queue", pod: pod("", "64", "8", "128Gi"),
			cq: clusterQueue("training", quotas("a100-on-demand", "4", "32", "256Gi", "")),
		},
		{
			name: "on-demand only, but the template wants spot", pod: pod("spot", "1", "8", "128Gi"),
			cq:    clusterQueue("", quotas("a100-on-demand", "4", "32", "256Gi", "")),
			cause: queue.NoFlavorMatches, res: "cpu",
			detail: []string{"flavor a100-on-demand selects nodes labelled {karpenter.sh/capacity-type=on-demand}, which the pod's node selector {karpenter.sh/capacity-type=spot, mlplatform.io/gpu=a100-sxm4-80gb} excludes"},
		},
		{
			// Kueue v0.19 matches a flavor on its own label keys; v0.17 took the group's, and
			// refused a100-on-demand here for lacking the other flavor's GPU label.
			name: "a selector key only another flavor's nodes carry is ignored", pod: pod("", "1", "8", "128Gi"),
			cq: clusterQueue("", quotas("a100-on-demand", "4", "32", "256Gi", ""), quotas("h100-spot", "8", "64", "512Gi", "")),
		},
		{
			name: "a taint the pod does not tolerate", pod: queue.Pod{Requests: corev1.ResourceList{"cpu": resource.MustParse("1")}},
			cq:    clusterQueue("", quotas("a100-on-demand", "4", "32", "256Gi", "")),
			cause: queue.NoFlavorMatches, res: "cpu", detail: []string{"has taint nvidia.com/gpu=true:NoSchedule, which the pod does not tolerate"},
		},
		{
			name: "a resource the queue does not cover", pod: func() queue.Pod {
				p := pod("", "1", "1", "1Gi")
				p.Requests["nvidia.com/mig-1g.10gb"] = resource.MustParse("1")
				return p
			}(),
			cq: both, cause: queue.NotCovered, res: "nvidia.com/mig-1g.10gb",
			detail: []string{"ClusterQueue nlp has no quota for nvidia.com/mig-1g.10gb (it covers: nvidia.com/gpu, cpu, memory)"},
		},
		{
			name: "a flavor that does not exist", pod: pod("", "1", "1", "1Gi"),
			cq:    clusterQueue("", quotas("h100", "4", "32", "256Gi", "")),
			cause: queue.NoFlavorMatches, res: "cpu", detail: []string{"flavor h100 does not exist"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := queue.Check(tc.pod, tc.cq, flavors)
			if len(tc.detail) == 0 {
				if len(got) != 0 {
					t.Fatalf("refused: %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d refusals %+v; want 1", len(got), got)
			}
			if got[0].Cause != tc.cause || got[0].Resource != tc.res {
				t.Errorf("cause %v on %s; want %v on %s", got[0].Cause, got[0].Resource, tc.cause, tc.res)
			}
			for _, s := range tc.detail {
				if !strings.Contains(got[0].Detail, s) {
					t.Errorf("detail %q\nlacks %q", got[0].Detail, s)
				}
			}
		})
	}
}

// Candidates are the flavors Check would let a pod land on, group by group: what a template's
// runs may run on, e.g. spot nodes only.
func TestCandidates(t *testing.T) {
	flavors := map[string]*kueue.ResourceFlavor{
		"a100-spot":      flavor("a100-spot", map[string]string{"karpenter.sh/capacity-type": "spot"}, gpuTaint),
		"a100-on-demand": flavor("a100-on-demand", map[string]string{"karpenter.sh/capacity-type": "on-demand"}, gpuTaint),
	}
	both := clusterQueue("", quotas("a100-on-demand", "4", "32", "256Gi", ""), quotas("a100-spot", "8", "64", "512Gi", ""))
	names := func(groups [][]*kueue.ResourceFlavor) string {
		var out []string
		for _, g := range groups {
			var fs []string
			for _, f := range g {
				fs = append(fs, f.Name)
			}
			out = append(out, "["+strings.Join(fs, " ")+"]")
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name string
		pod  queue.Pod
		cq   *kueue.ClusterQueue
		want string
	}{
		{name: "any capacity: both", pod: pod("", "1", "8", "128Gi"), cq: both, want: "[a100-on-demand a100-spot]"},
		{name: "spot selects spot", pod: pod("spot", "1", "8", "128Gi"), cq: both, want: "[a100-spot]"},
		{name: "too big for on-demand's quota", pod: pod("", "6", "8", "128Gi"), cq: both, want: "[a100-spot]"},
		{name: "too big for both", pod: pod("", "9", "8", "128Gi"), cq: both, want: "[]"},
		{name: "a missing flavor takes nothing", pod: pod("", "1", "8", "128Gi"),
			cq: clusterQueue("", quotas("h100", "4", "32", "256Gi", ""), quotas("a100-spot", "8", "64", "512Gi", "")), want: "[a100-spot]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := names(queue.Candidates(tc.pod, tc.cq, flavors)); got != tc.want {
				t.Errorf("candidates %s; want %s", got, tc.want)
			}
		})
	}
}
