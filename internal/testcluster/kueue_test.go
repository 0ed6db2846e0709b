package testcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

func meta(name string) map[string]any { return map[string]any{"name": name} }

func flavor(name string) map[string]any {
	return map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": meta(name),
		"spec": map[string]any{"nodeLabels": map[string]any{"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}}}
}

// gpuQueue is a ClusterQueue for all namespaces with one resource group; resources are
// {name, nominalQuota, ...} maps for the one flavor.
func gpuQueue(name, flavor string, covered []any, resources ...any) map[string]any {
	return map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": meta(name),
		"spec": map[string]any{
			"namespaceSelector": map[string]any{},
			"resourceGroups": []any{map[string]any{
				"coveredResources": covered,
				"flavors":          []any{map[string]any{"name": flavor, "resources": resources}},
			}},
		}}
}

func quota(resource, nominal string) map[string]any {
	return map[string]any{"name": resource, "nominalQuota": nominal}
}

var gpuOnly = []any{"nvidia.com/gpu"}

func TestKueueClusterQueueActive(t *testing.T) {
	c := client(t)
	mustCreate(t, c, flavors, flavor("a100-active"))
	mustCreate(t, c, clusterQueues, gpuQueue("active", "a100-active", gpuOnly, quota("nvidia.com/gpu", "8")))
	waitCondition(t, c, clusterQueues, "active", "Active", "True", "Ready")
}

func TestKueueClusterQueueFlavorNotFound(t *testing.T) {
	c := client(t)
	mustCreate(t, c, clusterQueues, gpuQueue("missing-flavor", "no-such-flavor", gpuOnly, quota("nvidia.com/gpu", "8")))
	waitCondition(t, c, clusterQueues, "missing-flavor", "Active", "False", "FlavorNotFound")
}

// gpuJob is a suspended Job in ns, queued in queue, whose one pod asks for gpus GPUs.
func gpuJob(ns, name, queue string, gpus int) map[string]any {
	res := map[string]any{"nvidia.com/gpu": fmt.Sprint(gpus)}
	return map[string]any{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"name": name, "namespace": ns, "labels": map[string]any{"kueue.x-k8s.io/queue-name": queue}},
		"spec": map[string]any{"suspend": true, "template": map[string]any{"spec": map[string]any{
			"restartPolicy": "Never",
			"containers": []any{map[string]any{"name": "train", "image": "trainer:1",
				"resources": map[string]any{"requests": res, "limits": res}}},
		}}}}
}

// ownedWorkload is the Workload that Kueue created for an object of kind (a Job, a Pod), found by
// its owner reference; nil while there is none. Listing errors fail the test.
func ownedWorkload(t *testing.T, c dynamic.Interface, ns, kind, owner string) *unstructured.Unstructured {
	t.Helper()
	list, err := c.Resource(workloads).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing Workloads: %v", err)
	}
	for i := range list.Items {
		for _, o := range list.Items[i].GetOwnerReferences() {
			if o.Kind == kind && o.Name == owner {
				return &list.Items[i]
			}
		}
	}
	return nil
}

func TestKueueAdmitsJobsWithinQuota(t *testing.T) {
	c := client(t)
	const ns = "team-admission"
	mustCreate(t, c, namespaces, map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": ns, "labels": map[string]any{ManagedNamespaceLabel: "true"}}})
	mustCreate(t, c, flavors, flavor("a100-admission"))
	mustCreate(t, c, clusterQueues, gpuQueue("admission", "a100-admission", gpuOnly, quota("nvidia.com/gpu", "4")))
	mustCreate(t, c, localQueues, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
		"metadata": map[string]any{"name": "training", "namespace": ns}, "spec": map[string]any{"clusterQueue": "admission"}})
	waitCondition(t, c, clusterQueues, "admission", "Active", "True", "Ready")

	// 3 of the 4 GPUs: admitted on the queue's flavor, and Kueue resumes the Job.
	mustCreate(t, c, jobs, gpuJob(ns, "first", "training", 3))
	eventually(t, "the first Job's Workload admitted", func() (bool, string) {
		wl := ownedWorkload(t, c, ns, "Job", "first")
		if wl == nil {
			return false, "no Workload owned by Job first"
		}
		s, r, m := condition(wl, "Admitted")
		cq, _, _ := unstructured.NestedString(wl.Object, "status", "admission", "clusterQueue")
		assignments, _, _ := unstructured.NestedSlice(wl.Object, "status", "admission", "podSetAssignments")
		var flavor any
		if len(assignments) == 1 {
			flavor, _, _ = unstructured.NestedFieldNoCopy(assignments[0].(map[string]any), "flavors", "nvidia.com/gpu")
		}
		return s == "True" && cq == "admission" && flavor == "a100-admission",
			fmt.Sprintf("Admitted=%q (%s: %s) clusterQueue %q nvidia.com/gpu flavor %v", s, r, m, cq, flavor)
	})
	eventually(t, "the first Job resumed", func() (bool, string) {
		job, err := c.Resource(jobs).Namespace(ns).Get(context.Background(), "first", metav1.GetOptions{})
		if err != nil {
			return false, notYet(t, err)
		}
		suspend, _, _ := unstructured.NestedBool(job.Object, "spec", "suspend")
		return !suspend, fmt.Sprintf("suspend=%v", suspend)
	})

	// 3 more do not fit in the 1 left: the Workload waits, and the Job stays suspended.
	mustCreate(t, c, jobs, gpuJob(ns, "second", "training", 3))
	eventually(t, "the second Job's Workload pending for quota", func() (bool, string) {
		wl := ownedWorkload(t, c, ns, "Job", "second")
		if wl == nil {
			return false, "no Workload owned by Job second"
		}
		s, r, m := condition(wl, "QuotaReserved")
		return s == "False" && strings.Contains(m, "insufficient unused quota for nvidia.com/gpu in flavor a100-admission"),
			fmt.Sprintf("QuotaReserved=%q (%s: %s)", s, r, m)
	})
	eventually(t, "the ClusterQueue counting 1 admitted and 1 pending", func() (bool, string) {
		cq, err := c.Resource(clusterQueues).Get(context.Background(), "admission", metav1.GetOptions{})
		if err != nil {
			return false, notYet(t, err)
		}
		admitted, _, _ := unstructured.NestedInt64(cq.Object, "status", "admittedWorkloads")
		pending, _, _ := unstructured.NestedInt64(cq.Object, "status", "pendingWorkloads")
		return admitted == 1 && pending == 1, fmt.Sprintf("admitted %d, pending %d", admitted, pending)
	})
	job, err := c.Resource(jobs).Namespace(ns).Get(context.Background(), "second", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if suspend, _, _ := unstructured.NestedBool(job.Object, "spec", "suspend"); !suspend {
		t.Fatal("the second Job was resumed without quota")
	}
}

// TestKueueWebhookRefusesInvalidClusterQueues checks objects that the CRD schema and its CEL rules
// accept but Kueue's validating webhook refuses.
func TestKueueWebhookRefusesInvalidClusterQueues(t *testing.T) {
	c := client(t)
	inCohort := func(q map[string]any) map[string]any {
		q["spec"].(map[string]any)["cohortName"] = "research"
		return q
	}
	for _, tc := range []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"quota resource not in coveredResources", gpuQueue("uncovered", "a100", gpuOnly, quota("cpu", "8")),
			`spec.resourceGroups[0].flavors[0].resources[0].name: Invalid value: "cpu": must match the name in coveredResources`},
		{"negative quota", gpuQueue("negative", "a100", gpuOnly, quota("nvidia.com/gpu", "-1")),
			`spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "-1": must be greater than or equal to 0`},
		{"lending limit above nominal quota", inCohort(gpuQueue("overlending", "a100", gpuOnly,
			map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "4", "lendingLimit": "5"})),
			`spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: "5": must be less than or equal to the nominalQuota`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := create(c, clusterQueues, tc.obj)
			const byWebhook = `admission webhook "vclusterqueue.kb.io" denied the request`
			if err == nil || !strings.Contains(err.Error(), byWebhook) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v; want one from Kueue's webhook (%s) with %q", err, byWebhook, tc.want)
			}
		})
	}
}
