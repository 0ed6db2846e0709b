package karpenter_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// refreshedStale is a plan check that the refresh before the plan read the pool's copy as out of
// step with its node class (node_class_copy_in_sync turned false), and the plan wants it back.
type refreshedStale struct{}

func (refreshedStale) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceDrift {
		if rc.Address != poolAddr {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		if got := after["node_class_copy_in_sync"]; got != false {
			resp.Error = fmt.Errorf("refreshed node_class_copy_in_sync = %v, want false", got)
		}
		return
	}
	resp.Error = fmt.Errorf("the refresh found no drift on %s", poolAddr)
}

// The pool's copy follows its node class when either is changed outside Terraform: the pool's
// plan shows the drift (even where the node class's own plan shows none), and its apply rewrites
// the copy from the node class as it is.
func TestAccGPUNodePool_copyFollowsNodeClassChangedOutside(t *testing.T) {
	name := acctest.Name("acc-copy-drift")
	class := name + "-class"
	p := acctest.ProviderBlock("", acctest.CostCentreDefault)
	cfg := poolWithClassConfig(p, name, `kubelet = { max_pods = 110 }`, `on_demand = { max_gpus = 8 }`+"\n"+`  billing = { team = "vision" }`)
	tags := map[string]any{"billing.mlplatform.io/cost-centre": "cc-1234", "team": "vision"}
	stale := func(classAction plancheck.ResourceActionType) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			refreshedStale{},
			plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
			plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("node_class_copy_in_sync"), knownvalue.Bool(true)),
			plancheck.ExpectResourceAction(nodeClassAddr, classAction),
		}}
	}
	copyField := func(want any, path ...string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), path...); fmt.Sprint(got) != fmt.Sprint(want) {
				return fmt.Errorf("copy's %v = %v, want %v", path, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name, class} {
				if err := acctest.Gone(t, karpenter.EC2NodeClassKind, "", n); err != nil {
					return err
				}
			}
			return acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand")
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("node_class_copy_in_sync"), knownvalue.Bool(true)),
				}},
				Check: func(*terraform.State) error { return checkCopy(t, name, class, tags) },
			},
			{
				// The node class leaves detailedMonitoring unset, so the field is not Terraform's
				// there: only the pool, whose copy follows the whole class, sees the change.
				PreConfig:        func() { editSpec(t, karpenter.EC2NodeClassKind, class, true, "spec", "detailedMonitoring") },
				Config:           cfg,
				ConfigPlanChecks: stale(plancheck.ResourceActionNoop),
				Check: resource.ComposeTestCheckFunc(copyField(true, "spec", "detailedMonitoring"),
					func(*terraform.State) error { return checkCopy(t, name, class, tags) }),
			},
			{
				// kubelet is the node class's own: its apply restores it, and the copy ends with
				// the restored value.
				PreConfig:        func() { editSpec(t, karpenter.EC2NodeClassKind, class, int64(64), "spec", "kubelet", "maxPods") },
				Config:           cfg,
				ConfigPlanChecks: stale(plancheck.ResourceActionUpdate),
				Check: resource.ComposeTestCheckFunc(copyField(110, "spec", "kubelet", "maxPods"),
					func(*terraform.State) error { return checkCopy(t, name, class, tags) }),
			},
			{
				// So are its tags, which the copy carries besides the pool's billing.
				PreConfig: func() {
					editSpec(t, karpenter.EC2NodeClassKind, class, "cc-9999", "spec", "tags", "billing.mlplatform.io/cost-centre")
				},
				Config:           cfg,
				ConfigPlanChecks: stale(plancheck.ResourceActionUpdate),
				Check:            func(*terraform.State) error { return checkCopy(t, name, class, tags) },
			},
			{
				// The AMI selector is the node class's own: its apply restores it, and the copy
				// ends with the restored one.
				PreConfig: func() {
					editSpec(t, karpenter.EC2NodeClassKind, class, []any{map[string]any{"alias": "al2023@v20240807"}}, "spec", "amiSelectorTerms")
				},
				Config:           cfg,
				ConfigPlanChecks: stale(plancheck.ResourceActionUpdate),
				Check: resource.ComposeTestCheckFunc(copyField([]any{map[string]any{"alias": "al2023@latest"}}, "spec", "amiSelectorTerms"),
					func(*terraform.State) error { return checkCopy(t, name, class, tags) }),
			},
			{
				// The copy itself edited: restored from the node class.
				PreConfig: func() {
					editSpec(t, karpenter.EC2NodeClassKind, name, []any{map[string]any{"id": "subnet-0123abcd"}}, "spec", "subnetSelectorTerms")
				},
				Config:           cfg,
				ConfigPlanChecks: stale(plancheck.ResourceActionNoop),
				Check:            func(*terraform.State) error { return checkCopy(t, name, class, tags) },
			},
		},
	})
}
