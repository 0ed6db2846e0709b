package karpenter_test

import (
	"context"
	"regexp"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

func nested(t *testing.T, obj *unstructured.Unstructured, path ...string) any {
	t.Helper()
	v, _, err := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// refuseAtPlan plans each config (given the provider block for an unreachable cluster) and
// expects a plan error matching want, with no API request (acctest.PlanCases: one plan for all).
func refuseAtPlan(t *testing.T, cases map[string]struct {
	config func(provider string) string
	want   string
}) {
	t.Helper()
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{
			Config: func(host string) string { return tc.config(acctest.ProviderBlock(host)) },
			Want:   regexp.MustCompile(tc.want),
		}
	}
	acctest.PlanCases(t, all)
}

// editSpec changes one field with an update, as `kubectl edit` does.
func editSpec(t *testing.T, k kube.Kind, name string, value any, path ...string) {
	t.Helper()
	obj := acctest.Get(t, k, "", name)
	if err := unstructured.SetNestedField(obj.Object, value, path...); err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.Dynamic(t).Resource(k.GVR).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("edit %s %s: %v", k, name, err)
	}
}
