package moduletest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	mlacctest "github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

var (
	nodeClaims     = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}
	kueueWorkloads = kueueGVR("workloads")
)

// consolidateAfter is how long the test's a100 pools keep an empty node.
const consolidateAfter = 5 * time.Second

// examples/complete's runs, on nodes: a whole-GPU run (nlp/sentiment-model, spot) and a MIG
// 1g.10gb run (research/mig-experiment) each make the real Karpenter launch a node of the pool
// their flavor names, of the instance type the pool allows; the real kube-scheduler binds the pod
// there, KWOK runs it, the run Succeeds; the emptied nodes go, as the pools' disruption says (WhenEmpty,
// after consolidateAfter). The local control plane has no EC2: Karpenter
// runs with its KWOK cloud provider, on copies of the provider's NodePools that differ only in
// nodeClassRef (see testcluster.UseKWOKNodeClass).
func TestModule_examplesCompleteRunsOnNodes(t *testing.T) {
	c := requireCLI(t)
	applyExampleComplete(t, c, func(dir string) {
		// The module's default keeps an empty node 10 minutes; the test's a100 pools let it go sooner.
		edit(t, dir, `instance_types = ["p4de.24xlarge"] }`, `instance_types = ["p4de.24xlarge"], disruption = { consolidate_after = "`+consolidateAfter.String()+`" } }`)
	})

	ctx := t.Context()
	originals, err := own.RunPoolsOnKWOK(ctx, pricing.DefaultRegion)
	t.Cleanup(func() {
		if err := own.StopPoolsOnKWOK(context.Background(), originals); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	r := &runs{t: t, cfg: own.Config}
	for _, run := range []struct{ ns, template, nodePool, resource string }{
		{"nlp", "sentiment-model", "a100-80gb-spot", "nvidia.com/gpu"},
		{"research", "mig-experiment", "", "nvidia.com/mig-1g.10gb"},
	} {
		name := run.template + "-run"
		r.submit(run.ns, name, run.template, "5s")
		r.waitWorkflow(run.ns, name, "Succeeded")
		pod := r.podOf(run.ns, name)
		node := r.node(pod.Spec.NodeName)
		pool := node.Labels[karpv1.NodePoolLabelKey]
		t.Logf("%s/%s ran on node %s (%s, NodePool %s, %s; %s %s)", run.ns, name, node.Name,
			node.Labels[corev1.LabelInstanceTypeStable], pool, node.Labels[karpv1.CapacityTypeLabelKey],
			run.resource, node.Status.Allocatable.Name(corev1.ResourceName(run.resource), "").String())
		if got := node.Labels[corev1.LabelInstanceTypeStable]; got != "p4de.24xlarge" {
			t.Errorf("%s ran on a %s; want the a100 pools' p4de.24xlarge", name, got)
		}
		if want := pod.Spec.NodeSelector[karpv1.NodePoolLabelKey]; pool != want || (run.nodePool != "" && pool != run.nodePool) {
			t.Errorf("%s ran on NodePool %s; its flavor selects %q (want %q)", name, pool, want, run.nodePool)
		}
		if q := node.Status.Allocatable.Name(corev1.ResourceName(run.resource), ""); q.IsZero() {
			t.Errorf("node %s offers no %s", node.Name, run.resource)
		}
		// From when the pod's containers ended (whole seconds, so no later than that): Argo may
		// record the Workflow finished seconds after, on a loaded machine, while Karpenter counts
		// from the pod's end.
		end, ended := containersEnded(pod)
		if !ended {
			t.Fatalf("Workflow %s Succeeded, but its pod's containers have not all ended: %+v", name, pod.Status.ContainerStatuses)
		}
		gone := r.waitNodeGone(node.Name)
		if empty := gone.Sub(end); empty < consolidateAfter {
			t.Errorf("node %s went %s after its run ended; the pool's consolidate_after is %s", node.Name, empty, consolidateAfter)
		} else {
			t.Logf("node %s removed %s after its run ended (consolidate_after %s)", node.Name, empty.Round(time.Second), consolidateAfter)
		}
	}
	r.spotInterruptionResumes()
	r.poolLimitHolds()
	r.strayFlavorStaysPending()
}

// containersEnded is when the last of the pod's containers ended, once all have.
func containersEnded(p *corev1.Pod) (time.Time, bool) {
	var end time.Time
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Terminated == nil {
			return time.Time{}, false
		}
		if at := c.State.Terminated.FinishedAt.Time; at.After(end) {
			end = at
		}
	}
	return end, len(p.Status.ContainerStatuses) > 0
}

// strayFlavorStaysPending: a flavor whose node labels drifted from what the pools' nodes carry
// (mlplatform.io/gpu=a100-80gb; the pools write a100-sxm4-80gb), written around the provider, as
// YAML would be: Kueue admits a run on it, Karpenter finds no NodePool for it and launches nothing,
// and the pod stays Pending. This is why mlplatform_resource_flavor refuses the label at plan, and
// mlplatform_cluster_queue a flavor no pool in the cluster matches before writing the queue
// (internal/service/kueue TestAccClusterQueue_Capacity).
func (r *runs) strayFlavorStaysPending() {
	t := r.t
	const ns, name = "nlp", "stray"
	client := dynamic.NewForConfigOrDie(r.cfg)
	objs := []struct {
		gvr schema.GroupVersionResource
		obj map[string]any
	}{
		{kueueGVR("resourceflavors"), map[string]any{"metadata": map[string]any{"name": name},
			"spec": map[string]any{"nodeLabels": map[string]any{"mlplatform.io/gpu": "a100-80gb", "karpenter.sh/capacity-type": "spot"}}}},
		{kueueGVR("clusterqueues"), map[string]any{"metadata": map[string]any{"name": name}, "spec": map[string]any{
			"namespaceSelector": map[string]any{},
			"resourceGroups": []any{map[string]any{"coveredResources": []any{"nvidia.com/gpu"}, "flavors": []any{map[string]any{
				"name": name, "resources": []any{map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "8"}}}}}},
		}}},
		{kueueGVR("localqueues"), map[string]any{"metadata": map[string]any{"name": name, "namespace": ns}, "spec": map[string]any{"clusterQueue": name}}},
	}
	for _, o := range objs {
		kind := map[string]string{"resourceflavors": "ResourceFlavor", "clusterqueues": "ClusterQueue", "localqueues": "LocalQueue"}[o.gvr.Resource]
		u := &unstructured.Unstructured{Object: o.obj}
		u.SetAPIVersion("kueue.x-k8s.io/v1beta2")
		u.SetKind(kind)
		res := client.Resource(o.gvr).Namespace(u.GetNamespace())
		if _, err := res.Create(t.Context(), u, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s %s: %v", kind, name, err)
		}
		t.Cleanup(func() { _ = res.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}
	pods := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Pods(ns)
	one := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"kueue.x-k8s.io/queue-name": name, "mlplatform.io/project": "stray"}},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Tolerations:   []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			Containers:    []corev1.Container{{Name: "main", Image: "trainer:1", Resources: corev1.ResourceRequirements{Requests: one, Limits: one}}},
		},
	}
	if _, err := pods.Create(t.Context(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		zero := int64(0)
		_ = pods.Delete(context.Background(), name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	})
	var got *corev1.Pod
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		p, err := pods.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Spec.SchedulingGates) == 0 && p.Spec.NodeSelector["mlplatform.io/gpu"] == "a100-80gb" {
			got = p
			break
		}
	}
	if got == nil {
		t.Fatalf("Kueue did not admit the run on flavor %s within 2m", name)
	}
	// Karpenter's verdict on the pod is an event on it: FailedScheduling when no NodePool fits it,
	// Nominated when it places it on a node, new or not. The test waits for the verdict, which a
	// loaded machine only delays, rather than for a time in which Karpenter may not have looked.
	var karpenter []string
	nominated := false
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Second) {
		events, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
		if err != nil {
			t.Fatal(err)
		}
		karpenter = karpenter[:0]
		for _, e := range events.Items {
			if e.Source.Component == "karpenter" || e.ReportingController == "karpenter" {
				karpenter = append(karpenter, e.Reason+": "+e.Message)
				nominated = nominated || e.Reason == "Nominated"
			}
		}
		if len(karpenter) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Karpenter said nothing about the Pending run within 2m; want its FailedScheduling (no compatible NodePool)")
		}
	}
	if nominated {
		t.Errorf("Karpenter placed the run on flavor %s: %q; want no NodePool to fit it", name, karpenter)
	}
	got, err := pods.Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Spec.NodeName != "" || got.Status.Phase != corev1.PodPending {
		t.Errorf("the run on flavor %s is %s on node %q; want it Pending: no pool's nodes carry the flavor's labels", name, got.Status.Phase, got.Spec.NodeName)
	}
	nodes, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Nodes().List(t.Context(), metav1.ListOptions{LabelSelector: "mlplatform.io/gpu=a100-80gb"})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != 0 {
		t.Errorf("%d nodes carry mlplatform.io/gpu=a100-80gb; want none: no pool writes it", len(nodes.Items))
	}
	t.Logf("the run on flavor %s stays Pending; Karpenter: %q", name, karpenter)
}

// poolLimitHolds: more runs than the a100 spot pool's max_gpus (24) can hold. Kueue admits what the
// queues' quotas allow (the nlp team's, and what it borrows in the cohort) and holds the rest as
// Workloads, so that no admitted pod waits for a node; Karpenter launches nodes for the admitted
// runs and stops at the NodePool's limit.
func (r *runs) poolLimitHolds() {
	t := r.t
	const ns, pool, limit, perNode = "nlp", "a100-80gb-spot", 24, 8
	const n = limit + 2
	for i := range n {
		r.submit(ns, fmt.Sprintf("limit-run-%02d", i), "sentiment-model", "10m")
	}
	core := kubernetes.NewForConfigOrDie(r.cfg).CoreV1()
	var admitted, bound, held int
	var last string
	for deadline := time.Now().Add(4 * time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Second) {
		admitted, held = r.workloads(ns, "limit-run-")
		pods, err := core.Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow"})
		if err != nil {
			t.Fatal(err)
		}
		bound = 0
		for _, p := range pods.Items {
			if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning && strings.HasPrefix(p.Labels["workflows.argoproj.io/workflow"], "limit-run-") {
				bound++
			}
		}
		last = fmt.Sprintf("%d Workloads admitted, %d held, %d pods running on nodes", admitted, held, bound)
		if admitted+held == n && held > 0 && bound == admitted {
			break
		}
	}
	if held == 0 || bound != admitted || admitted+held != n {
		t.Fatalf("after 4m: %s; want the %d runs admitted up to the quotas, the rest held, every admitted one on a node", last, n)
	}
	nodes, err := core.Nodes().List(t.Context(), metav1.ListOptions{LabelSelector: karpv1.NodePoolLabelKey + "=" + pool})
	if err != nil {
		t.Fatal(err)
	}
	if gpus := len(nodes.Items) * perNode; gpus > limit || gpus < admitted {
		t.Errorf("NodePool %s has %d nodes (%d GPUs) for %d admitted one-GPU runs; want enough for them, within its limit of %d", pool, len(nodes.Items), gpus, admitted, limit)
	}
	t.Logf("%d runs: %s; NodePool %s launched %d nodes (%d GPUs, limit %d)", n, last, pool, len(nodes.Items), len(nodes.Items)*perNode, limit)
	r.whyHeld(ns, "limit-run-", n)
}

// whyHeld: one command finds why a held run waits, as docs/guides/ml-engineers.md tells them: the
// module's Kueue configuration copies the run's name onto its Workload, whose QuotaReserved
// condition says why.
func (r *runs) whyHeld(ns, prefix string, n int) {
	t := r.t
	client := dynamic.NewForConfigOrDie(r.cfg).Resource(kueueWorkloads).Namespace(ns)
	for i := range n {
		run := fmt.Sprintf("%s%02d", prefix, i)
		list, err := client.List(t.Context(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + run})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 1 {
			t.Fatalf("kubectl get workloads -l workflows.argoproj.io/workflow=%s finds %d Workloads; want the run's one", run, len(list.Items))
		}
		conds, _, _ := unstructured.NestedSlice(list.Items[0].Object, "status", "conditions")
		for _, c := range conds {
			if c := c.(map[string]any); c["type"] == "QuotaReserved" && c["status"] == "False" {
				t.Logf("why %s waits: %s", run, c["message"])
				return
			}
		}
	}
	t.Errorf("no run %s* found waiting with a QuotaReserved=False condition on its Workload", prefix)
}

// spotInterruptionResumes: a spot node is reclaimed while a run trains on it. Karpenter, told of
// the interruption, deletes the node's NodeClaim, as it does on EC2's interruption notice: it
// drains the node, the trainer gets SIGTERM and exits 143, Argo retries the run (the template's
// retry expression takes exit 143 for an interruption), Karpenter launches a new node for the
// retry, and the retry resumes from the first attempt's checkpoint path.
func (r *runs) spotInterruptionResumes() {
	t := r.t
	const ns, name = "nlp", "interrupted-run"
	r.submit(ns, name, "sentiment-model", "40s")
	first := r.waitRunning(ns, name, nil)
	node := r.node(first.Spec.NodeName)
	claim := node.Labels["karpenter.sh/nodeclaim"]
	if claim == "" {
		claim = r.nodeClaimOf(node)
	}
	// Argo takes a pod that goes within RECENTLY_STARTED_POD_DURATION (10s) of its start for
	// informer lag and re-creates it as the same attempt, not as an interruption.
	time.Sleep(time.Until(first.Status.StartTime.Add(11 * time.Second)))
	firstExit := testcluster.WatchExit(t, kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Pods(ns), first)
	if err := dynamic.NewForConfigOrDie(r.cfg).Resource(nodeClaims).Delete(t.Context(), claim, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting NodeClaim %s, as Karpenter does on a spot interruption: %v", claim, err)
	}
	if code := firstExit(); code != 143 {
		t.Errorf("the trainer on the reclaimed node exited %d; want 143, SIGTERM's as the node drains", code)
	}
	retry := r.waitRunning(ns, name, []types.UID{first.UID})
	if retry.Spec.NodeName == node.Name {
		t.Errorf("the retry runs on the reclaimed node %s", node.Name)
	}
	if got, want := mlacctest.CheckpointDir(t, retry), mlacctest.CheckpointDir(t, first); got != want || want == "" {
		t.Errorf("the retry's checkpoint path is %q; want the first attempt's %q", got, want)
	}
	wf := r.waitWorkflow(ns, name, "Succeeded")
	msgs := mlacctest.WorkflowAttempts(wf)
	if len(msgs) != 2 {
		t.Errorf("%s's attempts: %q; want two, the first interrupted", name, msgs)
	}
	t.Logf("%s: first attempt on %s (%s), reclaimed; retry on %s; attempts %q", name, node.Name, claim, retry.Spec.NodeName, msgs)
}
