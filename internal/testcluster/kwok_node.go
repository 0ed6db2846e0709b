package testcluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KWOKNode is a node for KWOK to play (WithNodes), to create as it is: KWOK makes it Ready. Its
// capacity is also its allocatable, with room for 110 pods unless capacity says otherwise.
func KWOKNode(name string, labels map[string]string, taints []corev1.Taint, capacity corev1.ResourceList) *corev1.Node {
	capacity = capacity.DeepCopy()
	if _, ok := capacity[corev1.ResourcePods]; !ok {
		capacity[corev1.ResourcePods] = resource.MustParse("110")
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, Annotations: map[string]string{KWOKNodeAnnotation: "fake"}},
		Spec:       corev1.NodeSpec{Taints: taints},
		Status:     corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
	}
}
