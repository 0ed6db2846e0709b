package karpenter_test

import (
	"context"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// condition is a status condition as Karpenter writes it.
type condition struct{ Type, Status, Reason, Message string }

// karpenterReports plays Karpenter's controller, which the local control plane does not run: until
// stop is called, it writes conds into the status of the named object whenever it exists without
// them (again after a re-create). An object not there yet and a conflicting write are retried;
// any other error fails the test.
func karpenterReports(t *testing.T, k kube.Kind, name string, conds ...condition) (stop func()) {
	t.Helper()
	want := []any{}
	for _, c := range conds {
		want = append(want, map[string]any{"type": c.Type, "status": c.Status, "reason": c.Reason, "message": c.Message})
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	client := acctest.Dynamic(t).Resource(k.GVR)
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
			obj, err := client.Get(ctx, name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) || ctx.Err() != nil {
				continue
			}
			if err != nil {
				t.Errorf("reading %s %s: %v", k.Kind, name, err)
				return
			}
			if got, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions"); reported(got, want, obj.GetGeneration()) {
				continue
			}
			var out []any
			for _, w := range want {
				c := map[string]any{"lastTransitionTime": time.Now().UTC().Format(time.RFC3339), "observedGeneration": obj.GetGeneration()}
				for key, v := range w.(map[string]any) {
					c[key] = v
				}
				out = append(out, c)
			}
			if err := unstructured.SetNestedSlice(obj.Object, out, "status", "conditions"); err != nil {
				t.Error(err)
				return
			}
			_, err = client.UpdateStatus(ctx, obj, metav1.UpdateOptions{FieldManager: "karpenter"})
			if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) && ctx.Err() == nil {
				t.Errorf("writing the status of %s %s: %v", k.Kind, name, err)
				return
			}
		}
	}()
	return func() { cancel(); <-done }
}

// reported says whether got holds want, for the object's current generation.
func reported(got, want []any, generation int64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		g, _ := got[i].(map[string]any)
		if g["observedGeneration"] != generation {
			return false
		}
		for k, v := range want[i].(map[string]any) {
			if !reflect.DeepEqual(g[k], v) {
				return false
			}
		}
	}
	return true
}

func TestAccKarpenter_waitForReady(t *testing.T) {
	name := acctest.Name("acc-ready")
	class := name + "-class"
	p := acctest.ProviderBlock("")
	// The failing steps wait out these timeouts, and their errors must hold what the stand-in
	// reported by then: it reports within a poll (100ms) of an object's change, and 20s is two
	// hundred of those, which a loaded machine does not use up. The other steps end as soon as
	// the stand-in reports Ready.
	classWaits := "wait_for_ready = true\n  timeouts { create = \"20s\" }"
	pool := func(mig string) string {
		return `on_demand = { max_gpus = 8 }` + "\n" + mig + "\n" + `wait_for_ready = true` + "\n" + `timeouts { update = "20s" }`
	}
	var stop []func()
	stopAll := func() {
		for _, s := range stop {
			s()
		}
		stop = nil
	}
	t.Cleanup(stopAll)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Karpenter finds no subnet: the apply fails with what it reports.
				PreConfig: func() {
					stop = append(stop, karpenterReports(t, karpenter.EC2NodeClassKind, class,
						condition{"SubnetsReady", "False", "SubnetsNotFound", "SubnetSelector did not match any Subnets"},
						condition{"Ready", "False", "UnhealthyDependents", "SubnetsReady=False"}))
				},
				Config:      poolWithClassConfig(p, name, classWaits, pool("")),
				ExpectError: regexp.MustCompile(`(?s)EC2NodeClass ` + regexp.QuoteMeta(class) + `: the controller reports\s+SubnetsReady=False\s+\(SubnetsNotFound:\s+SubnetSelector\s+did\s+not\s+match\s+any\s+Subnets\);\s+Ready=False`),
			},
			{
				// Karpenter reports the node class and the NodePool Ready: the apply completes.
				PreConfig: func() {
					stopAll()
					stop = append(stop,
						karpenterReports(t, karpenter.EC2NodeClassKind, class, condition{"Ready", "True", "Ready", ""}),
						karpenterReports(t, capacity.NodePoolKind, name+"-on-demand", condition{"Ready", "True", "Ready", ""}))
				},
				Config: poolWithClassConfig(p, name, classWaits, pool("")),
			},
			{
				// A mixed MIG pool adds a NodeOverlay, for which nothing reports: the error says
				// what to check.
				Config:      poolWithClassConfig(p, name, classWaits, pool(`mig = { config = "all-1g.10gb" }`)),
				ExpectError: regexp.MustCompile(`(?s)NodeOverlay ` + regexp.QuoteMeta(name) + `: no controller reported its Ready\s+condition.*Is\s+Karpenter's\s+NodeOverlay\s+feature\s+gate\s+on\?`),
			},
		},
	})
}
