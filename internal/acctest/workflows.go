package acctest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// Workflows are Argo's Workflows.
var Workflows = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"}

// SubmitRun creates a Workflow that runs template in namespace, as `argo submit --from
// workflowtemplate/<template>` does. On nodes KWOK plays, its pods' containers end after runFor
// with exitCode ("" for 0; testcluster.RunForAnnotation); runFor "" runs them until deleted.
func SubmitRun(t *testing.T, client dynamic.Interface, namespace, name, template, runFor, exitCode string) {
	t.Helper()
	annotations := map[string]any{}
	if runFor != "" {
		annotations[testcluster.RunForAnnotation] = runFor
	}
	if exitCode != "" {
		annotations[testcluster.ExitCodeAnnotation] = exitCode
	}
	wf := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
		"metadata": map[string]any{"name": name, "namespace": namespace},
		"spec": map[string]any{
			"workflowTemplateRef": map[string]any{"name": template},
			"podMetadata":         map[string]any{"annotations": annotations},
		},
	}}
	if _, err := client.Resource(Workflows).Namespace(namespace).Create(context.Background(), wf, metav1.CreateOptions{}); err != nil {
		t.Fatalf("submitting %s/%s: %v", namespace, name, err)
	}
}

// WorkflowAttempts are "<phase>: <message>" of each pod node of an Argo Workflow (each attempt of
// a run), in start order.
func WorkflowAttempts(wf *unstructured.Unstructured) []string {
	nodes, _, _ := unstructured.NestedMap(wf.Object, "status", "nodes")
	type attempt struct{ started, msg string }
	var all []attempt
	for _, n := range nodes {
		n := n.(map[string]any)
		if n["type"] == "Pod" {
			msg, _ := n["message"].(string)
			started, _ := n["startedAt"].(string)
			all = append(all, attempt{started, fmt.Sprintf("%s: %s", n["phase"], msg)})
		}
	}
	slices.SortFunc(all, func(a, b attempt) int { return strings.Compare(a.started, b.started) })
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.msg
	}
	return out
}

// CheckpointDir is the CHECKPOINT_DIR a training template gives the trainer of pod p.
func CheckpointDir(t *testing.T, p *corev1.Pod) string {
	t.Helper()
	for _, c := range p.Spec.Containers {
		for _, env := range c.Env {
			if env.Name == "CHECKPOINT_DIR" {
				return env.Value
			}
		}
	}
	t.Fatalf("pod %s has no CHECKPOINT_DIR", p.Name)
	return ""
}
