package moduletest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// workerLost is the example's worker_lost_timeout in this test (Kueue's default is 15m).
const workerLost = 30 * time.Second

// TestModule_multiKueue applies examples/multi-cluster to three local control planes, each with
// Kueue's real manager: a MultiKueue manager (with Argo's workflow controller) and two workers,
// east and west (with kube-scheduler and KWOK, and a KWOK node per whole-GPU flavor). Each is
// reached through its own provider alias. Then training runs submitted on the manager from the
// example's template:
//   - run on a worker, admitted there on the worker's quota, and end Succeeded on the manager;
//   - go to west while east's quota is taken;
//   - are dispatched again to east once west stops answering, after workerLostTimeout.
func TestModule_multiKueue(t *testing.T) {
	c := requireCLI(t)
	acctest.SkipWithoutCluster(t)
	if os.Getenv("KUBECONFIG") != "" {
		t.Skip("needs three local control planes of its own (it stops one): runs without KUBECONFIG")
	}
	mk := startThree(t)
	env := []string{"TF_VAR_worker_lost_timeout=" + workerLost.String()}
	for _, w := range []string{"east", "west"} {
		kc, err := mk.clusters[w].MultiKueueKubeconfig()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, "TF_VAR_"+w+"_kubeconfig="+mk.clusters[w].Kubeconfig, "TF_VAR_"+w+"_multikueue_kubeconfig="+string(kc))
	}
	env = append(env, "TF_VAR_manager_kubeconfig="+mk.clusters["manager"].Kubeconfig)

	dir := filepath.Join(workspace(t), "examples/multi-cluster")
	c.must(t, dir, env, "init", "-no-color", "-input=false")
	t.Cleanup(func() {
		if out, err := c.run(t, dir, env, "destroy", "-no-color", "-input=false", "-auto-approve"); err != nil {
			t.Errorf("destroy failed: %v\n%s", err, out)
		}
	})
	c.must(t, dir, env, "apply", "-no-color", "-input=false", "-auto-approve")
	mk.checkOutputs(c.must(t, dir, env, "output", "-no-color", "-json"))

	for _, w := range []string{"east", "west"} {
		for _, flavor := range []string{"a100-on-demand", "a100-spot"} {
			mk.flavorNode(w, flavor)
		}
	}
	r := &runs{t: t, cfg: mk.clusters["manager"].Config}

	t.Run("a run goes to a worker and its end comes back", func(t *testing.T) {
		r := &runs{t: t, cfg: r.cfg}
		r.submit("research", "first", "finetune", "3s")
		worker := mk.dispatched(t, "first", "")
		t.Logf("run first dispatched to %s", worker)
		mk.ranOn(t, worker, "first", corev1.PodSucceeded)
		r.waitWorkflow("research", "first", "Succeeded")
	})

	t.Run("a worker without room is passed over, and a lost worker's run goes elsewhere", func(t *testing.T) {
		r := &runs{t: t, cfg: r.cfg}
		// east's a100 quota for research, its own and what it may borrow from nlp, taken by runs of
		// the same priority (so the new run cannot preempt them): 8 spot GPUs (more than on-demand
		// has), then the 4 on-demand GPUs.
		mk.blocker(t, "east", "blocker-spot", "8")
		mk.blocker(t, "east", "blocker-on-demand", "4")
		r.submit("research", "second", "finetune", "45s")
		if worker := mk.dispatched(t, "second", ""); worker != "west" {
			t.Fatalf("run second dispatched to %s, whose quota is taken; want west", worker)
		}
		mk.ranOn(t, "west", "second", corev1.PodRunning)

		mk.unblock(t, "east", "blocker-on-demand", "blocker-spot")
		west := mk.clusters["west"]
		// Measured from before the stop: the manager may lose west as soon as it starts to shut
		// down (answering 429), and a loaded machine can take seconds more to stop it.
		told := time.Now()
		if err := west.StopAPIServer(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = west.StartAPIServer() })
		worker := mk.dispatched(t, "second", "west")
		if after := time.Since(told); worker != "east" || after < workerLost {
			t.Fatalf("run second dispatched to %s %s after west was told to stop; want east after workerLostTimeout (%s)", worker, after.Round(time.Second), workerLost)
		}
		t.Logf("run second dispatched again to east %s after west was told to stop", time.Since(told).Round(time.Second))
		mk.ranOn(t, "east", "second", corev1.PodSucceeded)
		r.waitWorkflow("research", "second", "Succeeded")
		if err := west.StartAPIServer(); err != nil {
			t.Fatal(err)
		}
		// Back, west still holds its copy of the run, which the manager deletes only when it next
		// tries west, up to about 5 minutes later (internal/testcluster measures this). The team's
		// destroy would rightly refuse a namespace holding it, so the test removes it.
		mk.removeCopy(t, "west", "second")
	})
}

// threeClusters are the manager, east and west, by name.
type threeClusters struct {
	t        *testing.T
	clusters map[string]*testcluster.Cluster
}

// startThree starts the manager and the workers at once and stops them when the test ends, the
// manager first (its Kueue watches the workers).
func startThree(t *testing.T) *threeClusters {
	t.Helper()
	begin := time.Now()
	clusters, err := testcluster.StartAll(t.TempDir(), map[string][]testcluster.Option{
		"manager": clusterOptions(testcluster.WithMultiKueue(testcluster.MultiKueue{WorkerLostTimeout: workerLost, GCInterval: 10 * time.Second}), testcluster.WithArgo()),
		"east":    clusterOptions(testcluster.WithNodes()),
		"west":    clusterOptions(testcluster.WithNodes()),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"west", "east", "manager"} {
		t.Cleanup(func() {
			if err := clusters[name].Stop(); err != nil {
				t.Errorf("stopping %s: %v", name, err)
			}
		})
	}
	t.Logf("three control planes started in %s", time.Since(begin).Round(100*time.Millisecond))
	return &threeClusters{t: t, clusters: clusters}
}

// checkOutputs checks the example's outputs: every queue Active on every cluster (the manager's
// only once Kueue reaches a worker), the preflight of Karpenter and the GPU Operator on the
// workers only, and the manager's quotas the workers' summed.
func (mk *threeClusters) checkOutputs(out string) {
	t := mk.t
	t.Helper()
	var outputs struct {
		Queues struct {
			Value map[string]map[string]struct {
				Active bool `json:"active"`
			} `json:"value"`
		} `json:"queues"`
		Quotas struct {
			Value map[string]map[string]map[string]struct {
				GPUs int `json:"gpus"`
			} `json:"value"`
		} `json:"quotas"`
		Preflight struct {
			Value map[string]struct {
				Findings []struct {
					Component string `json:"component"`
				} `json:"findings"`
			} `json:"value"`
		} `json:"preflight"`
	}
	if err := json.Unmarshal([]byte(out), &outputs); err != nil {
		t.Fatalf("terraform output -json: %v\n%s", err, out)
	}
	for cluster, queues := range outputs.Queues.Value {
		for team, q := range queues {
			if !q.Active {
				t.Errorf("%s's queue %s is not Active", cluster, team)
			}
		}
	}
	if len(outputs.Queues.Value) != 3 {
		t.Errorf("queues of %d clusters; want manager, east and west", len(outputs.Queues.Value))
	}
	// The local clusters run neither Karpenter nor the GPU Operator: the workers' preflight says
	// so, the manager's, which runs no GPU nodes, does not check them.
	components := func(cluster string) []string {
		var c []string
		for _, f := range outputs.Preflight.Value[cluster].Findings {
			c = append(c, f.Component)
		}
		return c
	}
	if m, e := components("manager"), components("east"); slices.Contains(m, "karpenter") || slices.Contains(m, "gpu-operator") || !slices.Contains(e, "gpu-operator") {
		t.Errorf("preflight findings: manager %v, east %v; want Karpenter and the GPU Operator checked on the workers only", m, e)
	}
	q := outputs.Quotas.Value
	for flavor, want := range map[string]int{"a100-on-demand": 2 + 4, "a100-spot": 4 + 8, "a100-mig-spot": 1 + 2} {
		if got := q["manager"]["research"][flavor].GPUs; got != want || got != q["east"]["research"][flavor].GPUs+q["west"]["research"][flavor].GPUs {
			t.Errorf("the manager's research quota on %s is %d GPUs; want east's and west's summed, %d", flavor, got, want)
		}
	}
}

// flavorNode adds to worker a KWOK node with 8 GPUs that carries the labels and taints of the
// worker's ResourceFlavor flavor, as a node of the flavor's pool would.
func (mk *threeClusters) flavorNode(worker, flavor string) {
	t := mk.t
	t.Helper()
	cl := mk.clusters[worker]
	rf, err := dynamic.NewForConfigOrDie(cl.Config).Resource(kueueGVR("resourceflavors")).Get(t.Context(), flavor, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	labels, _, _ := unstructured.NestedStringMap(rf.Object, "spec", "nodeLabels")
	rawTaints, _, _ := unstructured.NestedSlice(rf.Object, "spec", "nodeTaints")
	var taints []corev1.Taint
	for _, raw := range rawTaints {
		m := raw.(map[string]any)
		taint := corev1.Taint{Key: fmt.Sprint(m["key"]), Effect: corev1.TaintEffect(fmt.Sprint(m["effect"]))}
		if v, ok := m["value"].(string); ok {
			taint.Value = v
		}
		taints = append(taints, taint)
	}
	node := testcluster.KWOKNode(worker+"-"+flavor, labels, taints, corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("8"),
		corev1.ResourceCPU: resource.MustParse("96"), corev1.ResourceMemory: resource.MustParse("1Ti")})
	if _, err := kubernetes.NewForConfigOrDie(cl.Config).CoreV1().Nodes().Create(t.Context(), node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// dispatched waits until the manager's Workload of the run workflow has its MultiKueue check
// Ready on a worker other than not, and returns the worker.
func (mk *threeClusters) dispatched(t *testing.T, workflow, not string) (worker string) {
	t.Helper()
	d := dynamic.NewForConfigOrDie(mk.clusters["manager"].Config)
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := d.Resource(kueueWorkloads).Namespace("research").List(ctx, metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
		if err != nil || len(list.Items) == 0 {
			last = fmt.Sprintf("no Workload of run %s (%v)", workflow, err)
			return false, nil
		}
		wl := list.Items[0]
		worker, _, _ = unstructured.NestedString(wl.Object, "status", "clusterName")
		checks, _, _ := unstructured.NestedSlice(wl.Object, "status", "admissionChecks")
		last = fmt.Sprintf("Workload %s: clusterName %q, checks %v", wl.GetName(), worker, checks)
		for _, c := range checks {
			if m, ok := c.(map[string]any); ok && m["name"] == "multikueue" && m["state"] == "Ready" {
				return worker != "" && worker != not, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("run %s not dispatched to a worker (other than %q): %s", workflow, not, last)
	}
	return worker
}

// ranOn waits until the run workflow's pod on worker is in phase, admitted there by the worker's
// own Kueue to research's ClusterQueue and bound to one of the worker's nodes.
func (mk *threeClusters) ranOn(t *testing.T, worker, workflow string, phase corev1.PodPhase) {
	t.Helper()
	cl := mk.clusters[worker]
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := kubernetes.NewForConfigOrDie(cl.Config).CoreV1().Pods("research").List(ctx, metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
		if err != nil || len(pods.Items) == 0 {
			last = fmt.Sprintf("no pod (%v)", err)
			return false, nil
		}
		p := pods.Items[0]
		last = fmt.Sprintf("pod %s %s on node %q", p.Name, p.Status.Phase, p.Spec.NodeName)
		return p.Status.Phase == phase && p.Spec.NodeName != "", nil
	})
	if err != nil {
		t.Fatalf("run %s on %s: want a pod %s on a node: %s", workflow, worker, phase, last)
	}
	wls, err := dynamic.NewForConfigOrDie(cl.Config).Resource(kueueWorkloads).Namespace("research").List(t.Context(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
	if err != nil || len(wls.Items) == 0 {
		t.Fatalf("run %s has no Workload on %s (%v)", workflow, worker, err)
	}
	if cq, _, _ := unstructured.NestedString(wls.Items[0].Object, "status", "admission", "clusterQueue"); cq != "research" {
		t.Errorf("run %s admitted on %s to ClusterQueue %q; want research", workflow, worker, cq)
	}
	t.Logf("run %s %s on %s (%s)", workflow, phase, worker, last)
}

// blocker queues a pod of gpus GPUs in research's LocalQueue on worker, at the runs' priority
// and with the project label the team requires, and waits until the worker's Kueue admits it.
func (mk *threeClusters) blocker(t *testing.T, worker, name, gpus string) {
	t.Helper()
	cl := mk.clusters[worker]
	res := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse(gpus)}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "research", Labels: map[string]string{
			"kueue.x-k8s.io/queue-name": "training", "kueue.x-k8s.io/priority-class": "production",
			"mlplatform.io/project": "blocker"}},
		Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{
			Name: "main", Image: "trainer:1", Resources: corev1.ResourceRequirements{Requests: res, Limits: res}}}},
	}
	if _, err := kubernetes.NewForConfigOrDie(cl.Config).CoreV1().Pods("research").Create(t.Context(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mk.unblock(t, worker, name) })
	d := dynamic.NewForConfigOrDie(cl.Config)
	err := wait.PollUntilContextTimeout(t.Context(), time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := d.Resource(kueueWorkloads).Namespace("research").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, wl := range list.Items {
			owners := wl.GetOwnerReferences()
			if len(owners) == 1 && owners[0].Name == name {
				_, admitted, _ := unstructured.NestedMap(wl.Object, "status", "admission")
				return admitted, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("blocker %s on %s not admitted: %v", name, worker, err)
	}
}

// unblock deletes the blockers from worker and waits until they are gone.
func (mk *threeClusters) unblock(t *testing.T, worker string, names ...string) {
	t.Helper()
	pods := kubernetes.NewForConfigOrDie(mk.clusters[worker].Config).CoreV1().Pods("research")
	for _, name := range names {
		err := wait.PollUntilContextTimeout(context.Background(), time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
			err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
			return apierrors.IsNotFound(err), nil
		})
		if err != nil {
			t.Errorf("blocker %s on %s not gone: %v", name, worker, err)
		}
	}
}

// removeCopy deletes the pods of the run workflow from worker and waits until they and their
// Workloads are gone.
func (mk *threeClusters) removeCopy(t *testing.T, worker, workflow string) {
	t.Helper()
	cl := mk.clusters[worker]
	pods := kubernetes.NewForConfigOrDie(cl.Config).CoreV1().Pods("research")
	workloads := dynamic.NewForConfigOrDie(cl.Config).Resource(kueueWorkloads).Namespace("research")
	selector := metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow}
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		if err := pods.DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}, selector); err != nil {
			return false, err
		}
		p, err1 := pods.List(ctx, selector)
		w, err2 := workloads.List(ctx, selector)
		if err1 != nil || err2 != nil {
			last = fmt.Sprint(err1, err2)
			return false, nil
		}
		last = fmt.Sprintf("%d pods, %d Workloads", len(p.Items), len(w.Items))
		return len(p.Items) == 0 && len(w.Items) == 0, nil
	})
	if err != nil {
		t.Fatalf("run %s's copy on %s not gone: %v (%s)", workflow, worker, err, last)
	}
}
