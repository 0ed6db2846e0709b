package framework

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestApplyObjectDropsZeroValues(t *testing.T) {
	cm := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: map[string]string{"a": "b"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}}}
	got, err := ApplyObject(cm, corev1.SchemeGroupVersion.WithKind("Node"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": "n", "labels": map[string]any{"a": "b"}},
		"spec":     map[string]any{"taints": []any{map[string]any{"key": "k", "effect": "NoSchedule"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ApplyObject = %#v\nwant %#v", got, want)
	}
}
