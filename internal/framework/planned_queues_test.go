package framework_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// A template's finding is said once, by whichever of the template, its LocalQueue, the
// ClusterQueue and the ClusterQueue's two flavors Terraform plans last, in every order; never while
// a flavor the ClusterQueue names is not planned (it may be the cluster's).
func TestUseQueue_saidOnceByWhicheverCompletesThePath(t *testing.T) {
	cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "nlp"}, Spec: kueue.ClusterQueueSpec{
		ResourceGroups: []kueue.ResourceGroup{{Flavors: []kueue.FlavorQuotas{{Name: "a100-spot"}, {Name: "a100-on-demand"}}}},
	}}
	flavor := func(name string) *kueue.ResourceFlavor {
		return &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name}}
	}
	use := func(judged *int) framework.QueueUse {
		return framework.QueueUse{What: `mlplatform_training_job_template "nlp/bert"`, Namespace: "nlp", Queue: "default",
			Judge: func(t *queue.Target) []framework.QueueFinding {
				*judged++
				return []framework.QueueFinding{{Attribute: path.Root("queue"), Summary: fmt.Sprintf("%d flavors", len(t.Flavors))}}
			}}
	}
	// Each step records one resource and returns how many findings it reports.
	steps := map[string]func(*framework.ProviderData, *int) int{
		"template": func(pd *framework.ProviderData, judged *int) int { return len(pd.UseQueue(use(judged))) },
		"local queue": func(pd *framework.ProviderData, _ *int) int {
			return len(pd.PlanLocalQueues("nlp", map[string]string{"default": "nlp"}))
		},
		"cluster queue": func(pd *framework.ProviderData, _ *int) int { return len(pd.PlanClusterQueue(cq)) },
		"spot flavor":   func(pd *framework.ProviderData, _ *int) int { return len(pd.PlanQueueFlavor(flavor("a100-spot"))) },
		"od flavor":     func(pd *framework.ProviderData, _ *int) int { return len(pd.PlanQueueFlavor(flavor("a100-on-demand"))) },
	}
	names := []string{"template", "local queue", "cluster queue", "spot flavor", "od flavor"}
	for _, order := range permutations(names) {
		var pd framework.ProviderData
		judged := 0
		for i, name := range order {
			n := steps[name](&pd, &judged)
			if last := i == len(order)-1; (n == 1) != last || n > 1 {
				t.Fatalf("order %v: %s (step %d) reported %d findings; want 1 from the last step only", order, name, i, n)
			}
		}
		// Planned again (a replacement is planned twice), a part of a whole path says nothing more.
		if n := steps["od flavor"](&pd, &judged); n != 0 || judged != 1 {
			t.Fatalf("order %v: the on-demand flavor planned again reported %d findings; judged %d times, want once", order, n, judged)
		}
	}
	// Without the on-demand flavor, the path is never whole.
	var pd framework.ProviderData
	judged := 0
	for _, name := range names[:4] {
		if n := steps[name](&pd, &judged); n != 0 || judged != 0 {
			t.Fatalf("%s reported %d findings (judged %d) without the on-demand flavor planned", name, n, judged)
		}
	}
}

// permutations are every order of names.
func permutations(names []string) [][]string {
	if len(names) <= 1 {
		return [][]string{names}
	}
	var out [][]string
	for i, first := range names {
		rest := append(append([]string{}, names[:i]...), names[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{first}, p...))
		}
	}
	return out
}
