package kueue_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// queue.Check is a hand-written copy of Kueue's flavor assigner (a template is checked against its
// queue at plan, before any pod exists). Each case here is judged by both: Kueue's manager admits
// the pod as a Workload, or says why it cannot, exactly when queue.Check finds nothing to refuse.
func TestAccQueueCheck_agreesWithKueue(t *testing.T) {
	requireKueue(t)
	ns := acctest.Name("acc-qcheck")
	acctest.Namespace(t, ns)
	gpuTaint := corev1.Taint{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}
	flavor := func(name string, labels map[string]string) *kueuev1beta2.ResourceFlavor {
		return &kueuev1beta2.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: ns + "-" + name},
			Spec: kueuev1beta2.ResourceFlavorSpec{NodeLabels: labels, NodeTaints: []corev1.Taint{gpuTaint}}}
	}
	onDemand := flavor("a100-od", map[string]string{"karpenter.sh/capacity-type": "on-demand"})
	h100Spot := flavor("h100-spot", map[string]string{"karpenter.sh/capacity-type": "spot", "mlplatform.io/gpu": "h100-sxm5-80gb"})
	pod := func(gpus string, selector map[string]string, tolerate bool, extra corev1.ResourceList) queue.Pod {
		p := queue.Pod{NodeSelector: selector, Requests: corev1.ResourceList{"nvidia.com/gpu": resource.MustParse(gpus),
			"cpu": resource.MustParse("8"), "memory": resource.MustParse("64Gi")}}
		for r, q := range extra {
			p.Requests[r] = q
		}
		if tolerate {
			p.Tolerations = []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
		}
		return p
	}
	a100 := map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb"}
	for i, tc := range []struct {
		name    string
		flavors []*kueuev1beta2.ResourceFlavor
		pod     queue.Pod
	}{
		{"fits", []*kueuev1beta2.ResourceFlavor{onDemand}, pod("1", a100, true, nil)},
		{"more GPUs than the quota", []*kueuev1beta2.ResourceFlavor{onDemand}, pod("9", a100, true, nil)},
		{"spot wanted, on-demand offered", []*kueuev1beta2.ResourceFlavor{onDemand},
			pod("1", map[string]string{"karpenter.sh/capacity-type": "spot"}, true, nil)},
		{"untolerated taint", []*kueuev1beta2.ResourceFlavor{onDemand}, pod("1", a100, false, nil)},
		{"a key only another flavor labels", []*kueuev1beta2.ResourceFlavor{onDemand, h100Spot}, pod("1", a100, true, nil)},
		{"a resource the queue does not cover", []*kueuev1beta2.ResourceFlavor{onDemand},
			pod("1", a100, true, corev1.ResourceList{"example.com/fpga": resource.MustParse("1")})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := fmt.Sprintf("%s-%d", ns, i)
			cq := &kueuev1beta2.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: id},
				Spec: kueuev1beta2.ClusterQueueSpec{NamespaceSelector: &metav1.LabelSelector{}}}
			rg := kueuev1beta2.ResourceGroup{CoveredResources: []corev1.ResourceName{"nvidia.com/gpu", "cpu", "memory"}}
			byName := map[string]*kueuev1beta2.ResourceFlavor{}
			for _, f := range tc.flavors {
				byName[f.Name] = f
				rg.Flavors = append(rg.Flavors, kueuev1beta2.FlavorQuotas{Name: kueuev1beta2.ResourceFlavorReference(f.Name),
					Resources: []kueuev1beta2.ResourceQuota{
						{Name: "nvidia.com/gpu", NominalQuota: resource.MustParse("4")},
						{Name: "cpu", NominalQuota: resource.MustParse("64")},
						{Name: "memory", NominalQuota: resource.MustParse("512Gi")}}})
			}
			cq.Spec.ResourceGroups = []kueuev1beta2.ResourceGroup{rg}
			want := queue.Check(tc.pod, cq, byName)

			for _, f := range tc.flavors {
				create(t, kueue.ResourceFlavorKind, "", f)
			}
			create(t, kueue.ClusterQueueKind, "", cq)
			create(t, kueue.LocalQueueKind, ns, &kueuev1beta2.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: ns},
				Spec: kueuev1beta2.LocalQueueSpec{ClusterQueue: kueuev1beta2.ClusterQueueReference(id)}})
			wl := workloadOf(ns, id, tc.pod)
			create(t, kueue.WorkloadKind, ns, wl)

			admitted, why := kueueVerdict(t, ns, id)
			if admitted != (len(want) == 0) {
				t.Errorf("Kueue admitted: %v (%s); queue.Check refused: %+v", admitted, why, want)
			}
		})
	}
}

// workloadOf is a Workload of one pod as a training template's would be.
func workloadOf(namespace, name string, p queue.Pod) *kueuev1beta2.Workload {
	return &kueuev1beta2.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: kueuev1beta2.WorkloadSpec{QueueName: kueuev1beta2.LocalQueueName(name), PodSets: []kueuev1beta2.PodSet{{
			Name: "main", Count: 1,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever, NodeSelector: p.NodeSelector, Tolerations: p.Tolerations,
				Containers: []corev1.Container{{Name: "train", Image: "registry.example.com/train:1",
					Resources: corev1.ResourceRequirements{Requests: p.Requests}}},
			}},
		}}}}
}

// create writes a fixture object (typed) and deletes it when the test ends, before what it names.
func create(t *testing.T, k kube.Kind, namespace string, obj runtime.Object) {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	o := &unstructured.Unstructured{Object: u}
	o.SetAPIVersion(kueuev1beta2.SchemeGroupVersion.String())
	o.SetKind(k.Kind)
	if _, err := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace).Create(context.Background(), o, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s %s: %v", k.Kind, o.GetName(), err)
	}
	t.Cleanup(func() { deleteAndWait(t, k, namespace, o.GetName()) })
}

// kueueVerdict waits until Kueue has admitted the Workload or reserved no quota for it with a
// reason, and returns which, with Kueue's message.
func kueueVerdict(t *testing.T, namespace, name string) (bool, string) {
	t.Helper()
	var admitted bool
	var why string
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		wl, err := acctest.Dynamic(t).Resource(kueue.WorkloadKind.GVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if adm, _, _ := unstructured.NestedMap(wl.Object, "status", "admission"); adm != nil {
			admitted, why = true, fmt.Sprint(adm)
			return true, nil
		}
		conds, _, _ := unstructured.NestedSlice(wl.Object, "status", "conditions")
		for _, c := range conds {
			c := c.(map[string]any)
			if c["type"] == "QuotaReserved" && c["status"] == "False" && c["message"] != "" {
				why = fmt.Sprint(c["message"])
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("Kueue neither admitted Workload %s/%s nor said why not: %v", namespace, name, err)
	}
	return admitted, why
}
