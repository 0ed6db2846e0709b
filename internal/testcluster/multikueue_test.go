package testcluster

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

var (
	multiKueueClusters = kueueGVR("multikueueclusters")
	multiKueueConfigs  = kueueGVR("multikueueconfigs")
	admissionChecks    = kueueGVR("admissionchecks")
	secrets            = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// The MultiKueue test's objects: the same namespace and queues on every cluster (the manager's
// Workloads are copied to the workers as they are, queue names included).
const (
	mkNamespace  = "team-multikueue"
	mkQueue      = "multikueue" // ClusterQueue everywhere; MultiKueueConfig and AdmissionCheck on the manager
	mkLocalQueue = "training"
	// mkWorkerLost is the manager's workerLostTimeout: short, as Kueue's own integration tests have it.
	mkWorkerLost = 30 * time.Second
)

// multiKueue is a manager cluster whose Kueue dispatches to workers, by MultiKueueCluster name.
type multiKueue struct {
	manager *Cluster
	workers map[string]*Cluster
}

// startMultiKueue starts a manager (Kueue only: its pods never run there) and two workers (Kueue
// and nodes) at once, each in its own directory under the package's, and stops them when the
// test ends.
func startMultiKueue(t *testing.T) *multiKueue {
	t.Helper()
	begin := time.Now()
	started, err := StartAll(filepath.Join(clusterDir, "multikueue"), map[string][]Option{
		"manager":  {WithMultiKueue(MultiKueue{WorkerLostTimeout: mkWorkerLost, GCInterval: 10 * time.Second})},
		"worker-1": {WithKueue(), WithNodes()},
		"worker-2": {WithKueue(), WithNodes()},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last in, first out: the manager stops first, as its Kueue watches the workers.
	for _, name := range []string{"worker-2", "worker-1", "manager"} {
		t.Cleanup(func() {
			if err := started[name].Stop(); err != nil {
				t.Errorf("stopping %s: %v", name, err)
			}
		})
	}
	t.Logf("three control planes with Kueue started in %s; logs under %s/multikueue", time.Since(begin).Round(100*time.Millisecond), clusterDir)
	return &multiKueue{manager: started["manager"], workers: map[string]*Cluster{"worker-1": started["worker-1"], "worker-2": started["worker-2"]}}
}

func dynamicClient(t *testing.T, c *Cluster) dynamic.Interface {
	t.Helper()
	d, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// teamPods is the pods of the team namespace on c.
func teamPods(c *Cluster) typedcorev1.PodInterface {
	return kubernetes.NewForConfigOrDie(c.Config).CoreV1().Pods(mkNamespace)
}

// declareQueues declares on c the team namespace (managed by Kueue), a flavor, a ClusterQueue
// with gpus nvidia.com/gpu of quota and checks as its admission checks, and the LocalQueue.
func declareQueues(t *testing.T, c *Cluster, gpus string, checks ...string) {
	t.Helper()
	d := dynamicClient(t, c)
	mustCreate(t, d, namespaces, map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": mkNamespace, "labels": map[string]any{ManagedNamespaceLabel: "true"}}})
	mustCreate(t, d, flavors, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": meta("gpu")})
	cq := gpuQueue(mkQueue, "gpu", gpuOnly, quota("nvidia.com/gpu", gpus))
	if len(checks) > 0 {
		var rules []any
		for _, name := range checks {
			rules = append(rules, map[string]any{"name": name})
		}
		cq["spec"].(map[string]any)["admissionChecksStrategy"] = map[string]any{"admissionChecks": rules}
	}
	mustCreate(t, d, clusterQueues, cq)
	mustCreate(t, d, localQueues, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
		"metadata": map[string]any{"name": mkLocalQueue, "namespace": mkNamespace}, "spec": map[string]any{"clusterQueue": mkQueue}})
}

// connect declares on the manager what dispatches its ClusterQueue's Workloads to the workers:
// a kubeconfig Secret and a MultiKueueCluster per worker, a MultiKueueConfig naming them and the
// MultiKueue AdmissionCheck, and waits until all are active.
func (mk *multiKueue) connect(t *testing.T) {
	t.Helper()
	d := dynamicClient(t, mk.manager)
	var names []any
	for name, w := range mk.workers {
		kubeconfig, err := w.MultiKueueKubeconfig()
		if err != nil {
			t.Fatal(err)
		}
		mustCreate(t, d, secrets, map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata":   map[string]any{"name": name + "-kubeconfig", "namespace": KueueNamespace},
			"stringData": map[string]any{"kubeconfig": string(kubeconfig)}})
		mustCreate(t, d, multiKueueClusters, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "MultiKueueCluster",
			"metadata": meta(name),
			"spec": map[string]any{"clusterSource": map[string]any{"kubeConfig": map[string]any{
				"locationType": "Secret", "location": name + "-kubeconfig"}}}})
		names = append(names, name)
	}
	mustCreate(t, d, multiKueueConfigs, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "MultiKueueConfig",
		"metadata": meta(mkQueue), "spec": map[string]any{"clusters": names}})
	mustCreate(t, d, admissionChecks, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "AdmissionCheck",
		"metadata": meta(mkQueue), "spec": map[string]any{
			"controllerName": "kueue.x-k8s.io/multikueue",
			"parameters":     map[string]any{"apiGroup": "kueue.x-k8s.io", "kind": "MultiKueueConfig", "name": mkQueue}}})
	for name := range mk.workers {
		waitCondition(t, d, multiKueueClusters, name, "Active", "True", "Active")
	}
	waitCondition(t, d, admissionChecks, mkQueue, "Active", "True", "Active")
	waitCondition(t, d, clusterQueues, mkQueue, "Active", "True", "Ready")
}

// queuedGPUPod is a pod in the team namespace queued in the LocalQueue, asking for gpus GPUs; runFor, if
// set, is how long it runs (RunForAnnotation), else until deleted.
func queuedGPUPod(name, gpus, runFor string) *corev1.Pod {
	res := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse(gpus)}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: mkNamespace,
			Labels: map[string]string{"kueue.x-k8s.io/queue-name": mkLocalQueue}},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "main", Image: "trainer:1",
				Resources: corev1.ResourceRequirements{Requests: res, Limits: res}}},
		},
	}
	if runFor != "" {
		p.Annotations = map[string]string{RunForAnnotation: runFor}
	}
	return p
}

func createPod(t *testing.T, c *Cluster, p *corev1.Pod) {
	t.Helper()
	if _, err := teamPods(c).Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating pod %s: %v", p.Name, err)
	}
}

// dispatched waits until the manager's Workload of pod has its MultiKueue check Ready on a worker
// other than not, and returns that worker and the Workload's name (the same on the worker).
func (mk *multiKueue) dispatched(t *testing.T, pod, not string) (worker, workload string) {
	t.Helper()
	d := dynamicClient(t, mk.manager)
	eventually(t, "pod "+pod+"'s Workload admitted on a worker", func() (bool, string) {
		wl := ownedWorkload(t, d, mkNamespace, "Pod", pod)
		if wl == nil {
			return false, "no Workload owned by pod " + pod
		}
		workload = wl.GetName()
		worker, _, _ = unstructured.NestedString(wl.Object, "status", "clusterName")
		state, message := checkState(wl, mkQueue)
		return state == "Ready" && worker != "" && worker != not,
			fmt.Sprintf("check %s %s (%s), clusterName %q", mkQueue, state, message, worker)
	})
	return worker, workload
}

// checkState is the state and message of the Workload's admission check name.
func checkState(wl *unstructured.Unstructured, name string) (state, message string) {
	checks, _, _ := unstructured.NestedSlice(wl.Object, "status", "admissionChecks")
	for _, c := range checks {
		if m, ok := c.(map[string]any); ok && m["name"] == name {
			state, _ = m["state"].(string)
			message, _ = m["message"].(string)
		}
	}
	return state, message
}

// waitWorkload waits until the named Workload on c has the condition typ with status.
func waitWorkload(t *testing.T, c *Cluster, name, typ, status string) *unstructured.Unstructured {
	t.Helper()
	d := dynamicClient(t, c)
	var wl *unstructured.Unstructured
	eventually(t, fmt.Sprintf("Workload %s %s=%s", name, typ, status), func() (bool, string) {
		var err error
		if wl, err = d.Resource(workloads).Namespace(mkNamespace).Get(context.Background(), name, metav1.GetOptions{}); err != nil {
			return false, notYet(t, err)
		}
		s, r, m := condition(wl, typ)
		return s == status, fmt.Sprintf("%s=%q (%s: %s)", typ, s, r, m)
	})
	return wl
}

// waitGone waits for up to within until the named pod and Workload ("": none) are gone from c.
func waitGone(t *testing.T, c *Cluster, within time.Duration, workload, pod string) {
	t.Helper()
	d := dynamicClient(t, c)
	eventuallyWithin(t, within, fmt.Sprintf("Workload %q and pod %s gone", workload, pod), func() (bool, string) {
		var wlErr error = apierrors.NewNotFound(workloads.GroupResource(), workload)
		if workload != "" {
			_, wlErr = d.Resource(workloads).Namespace(mkNamespace).Get(context.Background(), workload, metav1.GetOptions{})
		}
		_, podErr := teamPods(c).Get(context.Background(), pod, metav1.GetOptions{})
		return apierrors.IsNotFound(wlErr) && apierrors.IsNotFound(podErr), fmt.Sprintf("Workload: %v; pod: %v", wlErr, podErr)
	})
}

// other is the worker that is not name.
func other(name string) string {
	if name == "worker-1" {
		return "worker-2"
	}
	return "worker-1"
}

// TestMultiKueueDispatchesPodsToWorkers runs MultiKueue across three local control planes, each
// with Kueue's real manager: pods submitted on the manager (as Argo creates them) are dispatched
// to a worker with free quota, run on its KWOK node and report back; a worker that stops answering
// loses its runs to the other after workerLostTimeout.
func TestMultiKueueDispatchesPodsToWorkers(t *testing.T) {
	if cluster == nil {
		t.Skip("acceptance test of the local control plane: set TF_ACC=1 and unset KUBECONFIG")
	}
	mk := startMultiKueue(t)
	for name, w := range mk.workers {
		kwokNode(t, w, name+"-gpu", corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("2"),
			corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("32Gi")})
		declareQueues(t, w, "2")
	}
	declareQueues(t, mk.manager, "8", mkQueue)
	mk.connect(t)

	t.Run("a pod runs on a worker and its end is reported back", func(t *testing.T) {
		createPod(t, mk.manager, queuedGPUPod("first", "1", "3s"))
		worker, wl := mk.dispatched(t, "first", "")
		t.Logf("dispatched to %s", worker)
		w := mk.workers[worker]
		admitted := waitWorkload(t, w, wl, "Admitted", "True")
		if cq, _, _ := unstructured.NestedString(admitted.Object, "status", "admission", "clusterQueue"); cq != mkQueue {
			t.Errorf("admitted on %s's ClusterQueue %q; want %q", worker, cq, mkQueue)
		}
		if ran := waitPod(t, w, mkNamespace, "first", corev1.PodSucceeded); ran.Spec.NodeName != worker+"-gpu" {
			t.Errorf("pod ran on node %q of %s; want %s-gpu", ran.Spec.NodeName, worker, worker)
		}
		waitWorkload(t, mk.manager, wl, "Finished", "True")
		local, err := teamPods(mk.manager).Get(context.Background(), "first", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if local.Status.Phase != corev1.PodSucceeded || local.Spec.NodeName != "" {
			t.Errorf("the manager's pod: phase %s on node %q; want Succeeded, never bound", local.Status.Phase, local.Spec.NodeName)
		}
		waitGone(t, mk.workers[other(worker)], time.Minute, wl, "first")
	})

	// worker-1's quota taken by a pod of its own: the next run goes to worker-2. It runs until
	// worker-2 is lost, below.
	var lostWorkload string
	t.Run("a worker without free quota is passed over", func(t *testing.T) {
		createPod(t, mk.workers["worker-1"], queuedGPUPod("blocker", "2", ""))
		waitPod(t, mk.workers["worker-1"], mkNamespace, "blocker", corev1.PodRunning)
		createPod(t, mk.manager, queuedGPUPod("second", "1", "30s"))
		worker, wl := mk.dispatched(t, "second", "")
		if worker != "worker-2" {
			t.Fatalf("dispatched to %s, whose quota is taken; want worker-2", worker)
		}
		waitPod(t, mk.workers["worker-2"], mkNamespace, "second", corev1.PodRunning)
		lostWorkload = wl
	})

	t.Run("a lost worker's run is dispatched again after workerLostTimeout", func(t *testing.T) {
		if lostWorkload == "" {
			t.Skip("needs the run on worker-2")
		}
		w1, w2 := mk.workers["worker-1"], mk.workers["worker-2"]
		if err := teamPods(w1).Delete(context.Background(), "blocker", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitGone(t, w1, time.Minute, "", "blocker")
		told := time.Now()
		if err := w2.StopAPIServer(); err != nil {
			t.Fatal(err)
		}
		lost := time.Now()
		t.Logf("worker-2's apiserver stopped in %s", lost.Sub(told).Round(100*time.Millisecond))
		t.Cleanup(func() { _ = w2.StartAPIServer() })
		worker, wl := mk.dispatched(t, "second", "worker-2")
		// Measured from before the stop: the manager may lose the worker as soon as it starts to
		// shut down (answering 429), and a loaded machine can take seconds more to stop it.
		if after := time.Since(told); worker != "worker-1" || wl != lostWorkload || after < mkWorkerLost {
			t.Fatalf("Workload %s admitted on %s %s after worker-2 was told to stop; want %s on worker-1 after workerLostTimeout (%s)",
				wl, worker, after.Round(time.Second), lostWorkload, mkWorkerLost)
		}
		t.Logf("dispatched again to worker-1 %s after worker-2 stopped", time.Since(lost).Round(time.Second))
		waitPod(t, w1, mkNamespace, "second", corev1.PodSucceeded)
		waitWorkload(t, mk.manager, wl, "Finished", "True")
		t.Logf("finished on worker-1 %s after worker-2 stopped", time.Since(lost).Round(time.Second))

		// Back, worker-2 has its copy of the run removed by the manager, once the manager tries it
		// again: it retries a lost worker after 5s, 10s, 20s... up to 5m20s.
		if err := w2.StartAPIServer(); err != nil {
			t.Fatal(err)
		}
		back := time.Now()
		waitGone(t, w2, 6*time.Minute, wl, "second")
		t.Logf("worker-2's copy removed %s after it came back", time.Since(back).Round(time.Second))
	})
}
