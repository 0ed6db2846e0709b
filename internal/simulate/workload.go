package simulate

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// newWorkload is the Workload Kueue's pod integration makes of one run's pod: one pod set of
// Pods pods with the job's requests and node selector, its priority resolved from the class as
// Kueue's webhook does.
func newWorkload(in *Input, j *Job, name string, created time.Time) *kueue.Workload {
	wl := &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: j.Namespace, Name: name, UID: types.UID(j.Namespace + "/" + name),
			CreationTimestamp: metav1.NewTime(created),
		},
		Spec: kueue.WorkloadSpec{
			QueueName: kueue.LocalQueueName(j.Queue),
			Active:    ptr.To(true),
			PodSets: []kueue.PodSet{{
				Name:  kueue.DefaultPodSetName,
				Count: j.Pods,
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					NodeSelector: j.NodeSelector,
					Containers: []corev1.Container{{
						Name: "main", Resources: corev1.ResourceRequirements{Requests: j.Requests},
					}},
				}},
			}},
		},
	}
	if j.PriorityClass != "" {
		wl.Spec.PriorityClassRef = &kueue.PriorityClassRef{
			Group: kueue.WorkloadPriorityClassGroup, Kind: kueue.WorkloadPriorityClassKind, Name: j.PriorityClass,
		}
		for _, pc := range in.PriorityClasses {
			if pc.Name == j.PriorityClass {
				wl.Spec.Priority = ptr.To(pc.Value)
			}
		}
	}
	return wl
}
