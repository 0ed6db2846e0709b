package argo_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// kueueGate is the scheduling gate Kueue's pod webhook puts on a pod until its Workload is admitted.
const kueueGate = "kueue.x-k8s.io/admission"

// The seed platform's open problem, end to end with Kueue's, Argo's and Karpenter's real
// controllers and the real kube-scheduler, on nodes KWOK plays: a low-priority run is admitted on
// the team's quota and runs on a node Karpenter launches from the pool; a high-priority run that
// needs the same quota makes Kueue preempt it: the trainer gets SIGTERM and exits 143; Argo records
// the interruption and retries it with the same checkpoint path; the retry waits, gated, until the
// high-priority run is done, and is then admitted and finishes. A run whose trainer exits 1 is not
// retried.
func TestAccTrainingJobTemplate_survivesPreemption(t *testing.T) {
	ns := acctest.Name("acc-e2e-nlp")
	prefix := acctest.Name("acc-e2e")
	config := acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
locals {
  ns     = %[1]q
  prefix = %[2]q
}

resource "mlplatform_gpu_node_pool" "a100" {
  name       = "${local.prefix}-a100"
  node_class = "gpu"
  gpu        = { model = "a100-80gb" }
  spot       = { max_gpus = 8 }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "5s" }
}

resource "mlplatform_resource_flavor" "a100" {
  name        = "${local.prefix}-a100"
  node_labels = mlplatform_gpu_node_pool.a100.supplies["spot"].node_labels
  node_taints = mlplatform_gpu_node_pool.a100.supplies["spot"].taints
}

# Room for one run at a time: one GPU.
resource "mlplatform_cluster_queue" "nlp" {
  name               = "${local.prefix}-nlp"
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/gpu", "cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.a100.name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "1"
      }
      resource {
        name          = "cpu"
        nominal_quota = "8"
      }
      resource {
        name          = "memory"
        nominal_quota = "128Gi"
      }
    }
  }
  preemption      = { within_cluster_queue = "LowerPriority" }
  wait_for_active = true
}

resource "mlplatform_local_queue" "training" {
  namespace     = local.ns
  name          = "training"
  cluster_queue = mlplatform_cluster_queue.nlp.name
}

resource "mlplatform_workload_priority_class" "low" {
  name  = "${local.prefix}-low"
  value = 100
}

resource "mlplatform_workload_priority_class" "high" {
  name  = "${local.prefix}-high"
  value = 1000
}

%[3]s
%[4]s`, ns, prefix, e2eTemplate("low"), e2eTemplate("high"))
	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Namespace(t, ns)
			acctest.SetLabel(t, namespaceKind, "", ns, testcluster.ManagedNamespaceLabel, "true")
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				stop := acctest.RunPoolsOnKWOK(t)
				defer stop()
				e := &e2e{t: t, ns: ns, pods: kubernetes.NewForConfigOrDie(acctest.RestConfig(t)).CoreV1().Pods(ns)}
				defer e.release()
				e.preemptedRunResumes()
				e.failedRunIsFinal()
				return nil
			},
		}},
	})
}

// e2eTemplate is the sentiment template at one priority (for_each is not supported by the
// testing framework's state checks).
func e2eTemplate(priority string) string {
	return fmt.Sprintf(`
resource "mlplatform_training_job_template" %[1]q {
  namespace       = local.ns
  name            = "sentiment-%[1]s"
  queue           = mlplatform_local_queue.training.name
  priority_class  = mlplatform_workload_priority_class.%[1]s.name
  billing         = { "billing.mlplatform.io/team" = "nlp" }
  image           = "ghcr.io/acme/sentiment:1.4"
  training_script = "train.py"
  hyperparameters = { learning_rate = "3e-4" }
  hardware        = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 64 }
  capacity        = "spot"
  checkpoint      = { uri = "s3://ckpt/sentiment" }
  retry           = { limit = 3 }
}
`, priority)
}

type e2e struct {
	t    *testing.T
	ns   string
	pods typedcorev1.PodInterface
}

// eventually polls done every 250ms until it holds or within has passed, and says which.
func eventually(within time.Duration, done func() bool) bool {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if done() {
			return true
		}
	}
	return false
}

func (e *e2e) preemptedRunResumes() {
	t := e.t
	// Long enough to be preempted while it trains (its retry trains as long).
	e.submit("low-run", "sentiment-low", "60s", "")
	low := e.waitPod("low-run", nil, "admitted", admitted)
	e.checkLabels(low, "sentiment-low")
	if got := low.Spec.NodeSelector["karpenter.sh/capacity-type"]; got != "spot" {
		t.Errorf("admitted pod's nodeSelector = %v; want the flavor's capacity type spot", low.Spec.NodeSelector)
	}
	ckpt := acctest.CheckpointDir(t, low)
	if want := "s3://ckpt/sentiment/" + e.ns + "/low-run"; ckpt != want {
		t.Errorf("checkpoint path = %q; want %q", ckpt, want)
	}
	low = e.waitPod("low-run", nil, "running on a node", running)
	// Argo has seen it run for longer than RECENTLY_STARTED_POD_DURATION (10s): a pod that goes
	// sooner is re-created as the same attempt (informer lag), not recorded as an interruption.
	e.waitAttempts("low-run", "Running: ")
	time.Sleep(time.Until(low.Status.StartTime.Add(11 * time.Second)))
	lowExit := testcluster.WatchExit(t, e.pods, low)

	e.submit("high-run", "sentiment-high", "10s", "")
	high := e.waitPod("high-run", nil, "created", func(*corev1.Pod) bool { return true })
	// Not checked: gated. Kueue takes the quota back from the preempted Workload as it evicts it,
	// before the pod is gone, so the high-priority pod may be admitted before the test sees it.
	e.checkLabels(high, "sentiment-high")
	// Kueue preempts the low-priority pod: it marks it and deletes it. The trainer gets SIGTERM
	// and exits 143 (KWOK's node), the pod object goes, its Workload with it.
	e.waitDeleting(low.Name)
	if code := lowExit(); code != 143 {
		t.Errorf("the preempted trainer exited %d; want 143, SIGTERM's", code)
	}

	// Argo retries the interrupted run: a new pod of the same run, with the same checkpoint path,
	// gated while the high-priority run holds the quota.
	retry := e.waitPod("low-run", []types.UID{low.UID}, "created for the retry", func(*corev1.Pod) bool { return true })
	if got := acctest.CheckpointDir(t, retry); got != ckpt {
		t.Errorf("retried pod's checkpoint path = %q; want the first attempt's %q", got, ckpt)
	}
	e.waitPod("high-run", nil, "admitted", admitted)
	if !gated(e.get(retry.Name)) {
		t.Errorf("retried pod %s is not gated while the high-priority run holds the quota", retry.Name)
	}
	e.waitWorkflow("high-run", "Succeeded")

	e.waitPod("low-run", []types.UID{low.UID}, "admitted after the high-priority run", admitted)
	wf := e.waitWorkflow("low-run", "Succeeded")
	if msgs := acctest.WorkflowAttempts(wf); len(msgs) != 2 {
		t.Errorf("low-run's attempts: %q; want two, the first interrupted", msgs)
	} else {
		t.Logf("low-run's attempts: %q", msgs)
	}
}

func (e *e2e) failedRunIsFinal() {
	t := e.t
	e.submit("bug-run", "sentiment-low", "3s", "1")
	wf := e.waitWorkflow("bug-run", "Failed")
	if msgs := acctest.WorkflowAttempts(wf); len(msgs) != 1 {
		t.Errorf("bug-run's attempts: %q; want one: exit 1 is not retried", msgs)
	}
	// Failed is final: Argo retries a step before it fails the workflow, never after, so the pods
	// it made are all it makes.
	if pods := e.list("bug-run"); len(pods) != 1 {
		t.Errorf("bug-run has %d pods; want 1", len(pods))
	}
}

// release deletes the runs, their pods and Workloads at once, so that the queue can be destroyed
// even after a failure midway.
func (e *e2e) release() {
	ctx := context.Background()
	client := acctest.Dynamic(e.t)
	_ = client.Resource(workflowKind.GVR).Namespace(e.ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	pods, err := e.pods.List(ctx, metav1.ListOptions{})
	if err != nil {
		e.t.Errorf("list pods: %v", err)
		return
	}
	zero := int64(0)
	for _, p := range pods.Items {
		_, _ = client.Resource(podsGVR).Namespace(e.ns).Patch(ctx, p.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		_ = e.pods.Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	}
	_ = client.Resource(workloadGVR).Namespace(e.ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
}

// submit runs template as Workflow name, whose pods end after runFor with exitCode.
func (e *e2e) submit(name, template, runFor, exitCode string) {
	e.t.Helper()
	acctest.SubmitRun(e.t, acctest.Dynamic(e.t), e.ns, name, template, runFor, exitCode)
}

func (e *e2e) list(workflow string) []corev1.Pod {
	e.t.Helper()
	l, err := e.pods.List(context.Background(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
	if err != nil {
		e.t.Fatalf("list pods of %s: %v", workflow, err)
	}
	return l.Items
}

func (e *e2e) get(name string) *corev1.Pod {
	e.t.Helper()
	p, err := e.pods.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		e.t.Fatalf("get pod %s: %v", name, err)
	}
	return p
}

// waitPod waits for a pod of workflow, other than those in skip, for which ok holds.
func (e *e2e) waitPod(workflow string, skip []types.UID, what string, ok func(*corev1.Pod) bool) *corev1.Pod {
	e.t.Helper()
	var last []string
	var found *corev1.Pod
	if eventually(2*time.Minute, func() bool {
		last = nil
		pods := e.list(workflow)
		for i := range pods {
			p := &pods[i]
			if slices.Contains(skip, p.UID) || p.DeletionTimestamp != nil {
				continue
			}
			if ok(p) {
				found = p
				return true
			}
			last = append(last, fmt.Sprintf("%s (gates %v, phase %s)", p.Name, p.Spec.SchedulingGates, p.Status.Phase))
		}
		return false
	}) {
		return found
	}
	e.t.Fatalf("no pod of workflow %s %s within 2m; pods: %v; workflow: %s", workflow, what, last, e.describe(workflow))
	return nil
}

func (e *e2e) waitDeleting(name string) {
	e.t.Helper()
	if eventually(2*time.Minute, func() bool {
		p, err := e.pods.Get(context.Background(), name, metav1.GetOptions{})
		return apierrors.IsNotFound(err) || (err == nil && p.DeletionTimestamp != nil)
	}) {
		return
	}
	e.t.Fatalf("Kueue did not preempt pod %s within 2m", name)
}

func (e *e2e) waitWorkflow(name, phase string) *unstructured.Unstructured {
	e.t.Helper()
	var got string
	var wf *unstructured.Unstructured
	if eventually(2*time.Minute, func() bool {
		wf = acctest.Get(e.t, workflowKind, e.ns, name)
		got, _, _ = unstructured.NestedString(wf.Object, "status", "phase")
		return got == phase
	}) {
		return wf
	}
	e.t.Fatalf("workflow %s is %q after 2m; want %s; %s", name, got, phase, e.describe(name))
	return nil
}

// describe is a workflow's phase and its pod nodes' phases and messages, for a failure message.
func (e *e2e) describe(workflow string) string {
	wf := acctest.Get(e.t, workflowKind, e.ns, workflow)
	phase, _, _ := unstructured.NestedString(wf.Object, "status", "phase")
	msg, _, _ := unstructured.NestedString(wf.Object, "status", "message")
	var workloads []string
	list, err := acctest.Dynamic(e.t).Resource(workloadGVR).Namespace(e.ns).List(context.Background(), metav1.ListOptions{})
	if err == nil {
		for _, w := range list.Items {
			var conds []string
			cs, _, _ := unstructured.NestedSlice(w.Object, "status", "conditions")
			for _, c := range cs {
				c := c.(map[string]any)
				conds = append(conds, fmt.Sprintf("%s=%s(%s: %s)", c["type"], c["status"], c["reason"], c["message"]))
			}
			workloads = append(workloads, fmt.Sprintf("%s %v", w.GetName(), conds))
		}
	}
	return fmt.Sprintf("%s (%s), attempts %q; workloads: %s", phase, msg, acctest.WorkflowAttempts(wf), strings.Join(workloads, "; "))
}

var (
	workloadGVR = schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "workloads"}
	podsGVR     = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// waitAttempts waits until the workflow's pod nodes are want (see attemptMessages).
func (e *e2e) waitAttempts(workflow string, want ...string) {
	e.t.Helper()
	var got []string
	if eventually(time.Minute, func() bool {
		got = acctest.WorkflowAttempts(acctest.Get(e.t, workflowKind, e.ns, workflow))
		return slices.Equal(got, want)
	}) {
		return
	}
	e.t.Fatalf("workflow %s's attempts are %q after 1m; want %q", workflow, got, want)
}

// checkLabels checks that a run's pod carries the queue, priority and billing labels.
func (e *e2e) checkLabels(p *corev1.Pod, template string) {
	e.t.Helper()
	for k, want := range map[string]string{
		"kueue.x-k8s.io/queue-name": "training", "billing.mlplatform.io/team": "nlp",
		"billing.mlplatform.io/cost-centre": "cc-1234",
	} {
		if got := p.Labels[k]; got != want {
			e.t.Errorf("pod %s label %s = %q; want %q", p.Name, k, got, want)
		}
	}
	if want := strings.TrimPrefix(template, "sentiment"); !strings.HasSuffix(p.Labels["kueue.x-k8s.io/priority-class"], want) {
		e.t.Errorf("pod %s priority-class label = %q; want the template's, ending in %q", p.Name, p.Labels["kueue.x-k8s.io/priority-class"], want)
	}
}

func gated(p *corev1.Pod) bool {
	return slices.ContainsFunc(p.Spec.SchedulingGates, func(g corev1.PodSchedulingGate) bool { return g.Name == kueueGate })
}

// running: bound to a node and running there.
func running(p *corev1.Pod) bool { return p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning }

// admitted: Kueue's pod (it has its finalizer) with the gate removed.
func admitted(p *corev1.Pod) bool {
	return slices.Contains(p.Finalizers, "kueue.x-k8s.io/managed") && !gated(p)
}

var (
	workflowKind = kube.Kind{GVR: schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"},
		Kind: "Workflow", Namespaced: true}
	namespaceKind = kube.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, Kind: "Namespace"}
)
