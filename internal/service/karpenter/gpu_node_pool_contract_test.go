package karpenter_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// suppliesReadBack checks the contract of internal/capacity end to end: each NodePool the pool
// wrote, read back as the ClusterQueue capacity check reads it, supplies what the pool's
// `supplies` said at plan, and carries the node labels a flavor selects it by.
type suppliesReadBack struct {
	t    *testing.T
	pool string
}

func (c suppliesReadBack) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address != poolAddr {
			continue
		}
		supplies, _ := r.AttributeValues["supplies"].(map[string]any)
		if len(supplies) == 0 {
			resp.Error = fmt.Errorf("no supplies in state")
			return
		}
		for capacityType, raw := range supplies {
			want := raw.(map[string]any)
			np := acctest.Get(c.t, capacity.NodePoolKind, "", c.pool+"-"+capacityType)
			p, ok := capacity.PoolFromNodePool(np)
			if !ok {
				resp.Error = fmt.Errorf("NodePool %s is not read as a GPU node pool", np.GetName())
				return
			}
			got, err := p.Supply()
			if err != nil {
				resp.Error = fmt.Errorf("NodePool %s: %w", np.GetName(), err)
				return
			}
			if want["resources"] == nil { // no max_gpus: read back as unbounded
				for r, n := range got.Most {
					if n != -1 {
						resp.Error = fmt.Errorf("%s: %s read back bounded (%d), supplies unbounded", capacityType, r, n)
						return
					}
				}
			} else if err := sameCounts(capacityType+" resources", got.Most, want["resources"]); err != nil {
				resp.Error = err
				return
			}
			if err := sameCounts(capacityType+" per_gpu", got.PerGPU, want["per_gpu"]); err != nil {
				resp.Error = err
				return
			}
			if err := sameCounts(capacityType+" per_node", got.PerNode, want["per_node"]); err != nil {
				resp.Error = err
				return
			}
			for k, v := range want["node_labels"].(map[string]any) {
				if got.NodeLabels[k] != v {
					resp.Error = fmt.Errorf("%s: node label %s = %q read back, %q in supplies", capacityType, k, got.NodeLabels[k], v)
					return
				}
			}
		}
		return
	}
	resp.Error = fmt.Errorf("%s not in state", poolAddr)
}

func sameCounts(what string, got map[string]int64, want any) error {
	w, _ := want.(map[string]any)
	if len(w) != len(got) {
		return fmt.Errorf("%s: read back %v, supplies %v", what, got, w)
	}
	for k, v := range w {
		if fmt.Sprint(got[k]) != fmt.Sprint(v) {
			return fmt.Errorf("%s[%s]: read back %d, supplies %v", what, k, got[k], v)
		}
	}
	return nil
}

func TestAccGPUNodePool_suppliesReadBack(t *testing.T) {
	const a100 = `{ model = "a100-80gb" }`
	for name, tc := range map[string]struct{ gpu, body string }{
		"mig-profiles": {a100, `
  mig       = { profiles = { "1g.10gb" = 3, "3g.40gb" = 1 } }
  on_demand = { max_gpus = 16 }
  spot      = { max_gpus = 32 }`},
		"mig-config-single": {a100, `
  mig      = { config = "all-1g.10gb", strategy = "single" }
  reserved = { max_gpus = 8 }`},
		"time-slicing": {a100, `
  time_slicing = { replicas = 4 }
  spot         = { max_gpus = 8 }
  on_demand    = { max_gpus = 4 }`},
		"mig-parts": {a100, poolHalfBalanced},
		"whole": {a100, `
  reserved = { max_gpus = 16 }`},
		"unbounded": {a100, `
  mig  = { config = "all-1g.10gb" }
  spot = { max_cpu = "1000" }`},
		// Selected by requirements: a static pool's nodes are known from the one matching type.
		"requirements-static": {`{ model = "h100", instance_requirements = { gpu_counts = [8] } }`, `
  mig      = { config = "all-1g.10gb" }
  reserved = { nodes = 2 }`},
		"requirements-limits": {`{ model = "a100-80gb", instance_requirements = {} }`, `
  mig       = { profiles = { "1g.10gb" = 3, "3g.40gb" = 1 } }
  on_demand = { max_gpus = 16 }`},
	} {
		t.Run(name, func(t *testing.T) {
			pool := acctest.Name("acc-rb-" + name)
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { acctest.PreCheck(t) },
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				Steps: []resource.TestStep{{
					Config:            poolConfigGPU(acctest.ProviderBlock(""), pool, tc.gpu, tc.body),
					ConfigStateChecks: []statecheck.StateCheck{suppliesReadBack{t, pool}},
				}},
			})
		})
	}
}
