package testcluster

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The control plane serves the CRDs of the Argo release it runs. v4's CronWorkflow CRD takes
// schedules of digits only, a pattern v3's lacks: why internal/validate refuses weekday names at
// plan (crds_argo4.go).
func TestArgoServesItsReleasesCRDs(t *testing.T) {
	c := client(t)
	r, err := argoFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cron := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "CronWorkflow",
		"metadata": map[string]any{"name": "weekdays", "namespace": ArgoNamespace},
		"spec": map[string]any{"schedules": []any{"0 2 * * MON"},
			"workflowSpec": map[string]any{"workflowTemplateRef": map[string]any{"name": "train"}}}}}
	gvr := schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "cronworkflows"}
	// A dry run: the controller never sees it.
	_, err = c.Resource(gvr).Namespace(ArgoNamespace).Create(context.Background(), cron, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	refused := apierrors.IsInvalid(err) && strings.Contains(err.Error(), "spec.schedules[0]")
	if want := r.tool == "argo4"; refused != want || (!refused && err != nil) {
		t.Errorf("%s: creating a CronWorkflow scheduled on MON: %v; want refused: %v", r.tool, err, want)
	}
}
