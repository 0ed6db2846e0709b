package simulation_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// day is two teams in a cohort on one A100-80GB flavor (8 GPUs each) and one MIG flavor; shapes
// and arrivals are the caller's.
func day(host, profiles string) string { return span(host, "12h", "1h", profiles) }

// span is day over another horizon and interval.
func span(host, horizon, interval, profiles string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  host = %q
}

data "mlplatform_capacity_simulation" "test" {
  horizon  = %q
  interval = %q
  flavors = [
    { name = "a100", node_labels = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand" }, price_per_hour = { "nvidia.com/gpu" = 4 } },
    { name = "a100-mig", node_labels = { "mlplatform.io/gpu" = "a100-sxm4-80gb" }, units_per_gpu = { "nvidia.com/mig-1g.10gb" = 7 } },
  ]
  cluster_queues = [for t in ["a", "b"] : {
    name   = t
    cohort = "pool"
    preemption = { reclaim_within_cohort = "Any", within_cluster_queue = "LowerPriority" }
    flavors = [
      { name = "a100", resources = { "nvidia.com/gpu" = { nominal_quota = "8" } } },
      { name = "a100-mig", resources = { "nvidia.com/mig-1g.10gb" = { nominal_quota = "14" } } },
    ]
  }]
  local_queues     = [for t in ["a", "b"] : { namespace = t, name = "train", cluster_queue = t }]
  priority_classes = { low = 100, high = 1000 }
  profiles = [%s]
}
`, host, horizon, interval, profiles)
}

const fifo = `{
    team        = "a"
    local_queue = "train"
    arrivals    = ["0s", "1m", "2m"]
    shapes      = [{ gpu_type = "a100-80gb", gpus = 4 }]
    duration    = { distribution = "fixed", mean = "1h" }
  }`

// Three 4-GPU runs on 8 GPUs plus b's 8 to borrow: Kueue admits each as it arrives, the third
// (at 2m) on b's idle quota until the first ends (1h): 4 GPUs borrowed for 58 minutes. The
// first hour averages (4x60 + 4x59 + 4x58)/60 = 11.8 GPUs. No request reaches the cluster.
func TestCapacitySimulation_fifoAndBorrowing(t *testing.T) {
	addr := "data.mlplatform_capacity_simulation.test"
	team := func(attr string) tfjsonpath.Path { return tfjsonpath.New("teams").AtMapKey("a").AtMapKey(attr) }
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config: day(host, fifo),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("jobs"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(addr, team("finished"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(addr, team("wait_max_minutes"), knownvalue.Float64Exact(0)),
				statecheck.ExpectKnownValue(addr, team("gpu_hours"), knownvalue.Float64Exact(12)),
				statecheck.ExpectKnownValue(addr, team("borrowed_gpu_hours"), knownvalue.Float64Exact(3.87)),
				statecheck.ExpectKnownValue(addr, team("cost"), knownvalue.Float64Exact(48)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("teams").AtMapKey("b").AtMapKey("lent_gpu_hours"), knownvalue.Float64Exact(3.87)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("timeline"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("timeline").AtSliceIndex(0).AtMapKey("gpus_in_use").AtMapKey("a100"), knownvalue.Float64Exact(11.8)),
			},
		}}
	})
}

// MIG slices: 20 one-slice runs on a's 14 slices and b's 14 to borrow, each an hour.
func TestCapacitySimulation_migSlices(t *testing.T) {
	host, _ := acctest.UnreachableCluster(t)
	addr := "data.mlplatform_capacity_simulation.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: day(host, `{
    team        = "a"
    local_queue = "train"
    arrivals    = [for i in range(20) : "${i}s"]
    shapes      = [{ gpu_type = "a100-80gb", mig_profile = "1g.10gb" }]
    duration    = { distribution = "fixed", mean = "1h" }
  }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("teams").AtMapKey("a").AtMapKey("wait_max_minutes"), knownvalue.Float64Exact(0)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("teams").AtMapKey("a").AtMapKey("gpu_hours"), knownvalue.Float64Exact(2.86)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("flavor_usage").AtSliceIndex(1).AtMapKey("peak"), knownvalue.Float64Exact(20)),
			},
		}},
	})
}

// The same MIG day in whole GPUs: the MIG flavor's 14 slices a queue are 2 GPUs, and the 20
// one-slice runs become 20 one-GPU runs, which the whole-GPU flavor and the borrowing take at
// once: 20 GPU-hours where the slices took 2.86.
func TestCapacitySimulation_wholeGPUs(t *testing.T) {
	host, _ := acctest.UnreachableCluster(t)
	addr := "data.mlplatform_capacity_simulation.test"
	config := strings.Replace(day(host, `{
    team        = "a"
    local_queue = "train"
    arrivals    = [for i in range(20) : "${i}s"]
    shapes      = [{ gpu_type = "a100-80gb", mig_profile = "1g.10gb" }]
    duration    = { distribution = "fixed", mean = "1h" }
  }`), `horizon  = "12h"`, `horizon  = "12h"
  whole_gpus = true`, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("teams").AtMapKey("a").AtMapKey("finished"), knownvalue.Int64Exact(20)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("teams").AtMapKey("a").AtMapKey("gpu_hours"), knownvalue.Float64Exact(20)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("flavor_usage").AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"flavor": knownvalue.StringExact("a100-mig"), "resource": knownvalue.StringExact("nvidia.com/gpu"), "quota": knownvalue.Float64Exact(4),
				})),
			},
		}},
	})
}

// Bad input is refused at plan, naming the attribute.
func TestCapacitySimulation_refusals(t *testing.T) {
	host, _ := acctest.UnreachableCluster(t)
	profile := func(shape, extra string) string {
		return fmt.Sprintf(`{
    team        = "a"
    local_queue = "train"
    shapes      = [%s]
    duration    = { distribution = "fixed", mean = "1h" }
    %s
  }`, shape, extra)
	}
	const ten = "jobs_per_day = 10"
	var steps []resource.TestStep
	for _, c := range []struct{ config, err string }{
		{profile(`{ gpu_type = "a100-90gb" }`, ten), `profiles\[0\]\.shapes\[0\]\.gpu_type: unknown GPU model "a100-90gb"`},
		{profile(`{ gpu_type = "a100-80gb", mig_profile = "1g.5gb" }`, ten), `A100-SXM4-80GB\s+has\s+no\s+MIG\s+profile\s+"1g\.5gb";\s+its\s+profiles\s+are[\s\S]*"1g\.5gb"\s+is\s+a\s+profile\s+of\s+A100-SXM4-40GB[\s\S]*same\s+share\s+of\s+a\s+GPU\s+is\s+1g\.10gb`},
		{profile(`{ gpu_type = "h100", gpus = 1 }`, ten), `No flavor can admit this job[\s\S]*mlplatform\.io/gpu=a100-sxm4-80gb`},
		{profile(`{ gpu_type = "a100-80gb", gpus = 17 }`, ten), `the queue can hold at most 16`},
		{profile(`{ gpus = 1 }`, `jobs_per_day = 1e6`), `Simulation too large`},
		{profile(`{ gpus = 1 }`, ten+`
spot_interruptions_per_hour = -1`), `spot_interruptions_per_hour`},
	} {
		steps = append(steps, resource.TestStep{Config: day(host, c.config), ExpectError: regexp.MustCompile(c.err)})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProviderFactories, Steps: steps})
}

// Input that once panicked the provider, ran out of memory or took minutes is refused at plan
// through Terraform, on its attribute, with the bound (and, for a timeline, what it would cost
// and the interval that would do), before any simulation: an interval of 1ns (a makeslice
// panic), a year by the minute, ten years, 1e308 jobs a day, a mean of 1ns (silently 1m).
func TestCapacitySimulation_boundsAtPlan(t *testing.T) {
	host, _ := acctest.UnreachableCluster(t)
	var steps []resource.TestStep
	for _, c := range []struct{ horizon, interval, profile, err string }{
		{"24h", "1ns", fifo, `Duration out of range[\s\S]*interval: "1ns" is outside 1m to 8784h`},
		{"8784h", "1m", fifo, `Timeline too long[\s\S]*527040 steps \(horizon 8784h by interval 1m\), more than 10000: about [0-9]+ MB of the provider's memory[\s\S]*Set interval to 53m or more`},
		{"87600h", "24h", fifo, `Duration out of range[\s\S]*horizon: "87600h" is outside 1m to 8784h`},
		{"24h", "1h", strings.Replace(fifo, `arrivals    = ["0s", "1m", "2m"]`, `jobs_per_day = 1e308`, 1), `profiles\[0\]\.jobs_per_day value must be between 0\.000000 and 1000000\.000000, got: 10000000000000000109790636`},
		{"24h", "1h", strings.Replace(fifo, `mean = "1h"`, `mean = "1ns"`, 1), `profiles\[0\]\.duration\.mean: "1ns" is outside 1m to 8784h`},
	} {
		steps = append(steps, resource.TestStep{Config: span(host, c.horizon, c.interval, c.profile), PlanOnly: true, ExpectError: acctest.Wrapped(c.err)})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProviderFactories, Steps: steps})
}

// Two profiles of one team (two kinds of its work, one queue) are simulated together, each
// job apart: all five run and are reported under the team (they collided at run time:
// `workloads "a-1" already exists`).
func TestCapacitySimulation_twoProfilesOfOneTeam(t *testing.T) {
	addr := "data.mlplatform_capacity_simulation.test"
	team := func(attr string) tfjsonpath.Path { return tfjsonpath.New("teams").AtMapKey("a").AtMapKey(attr) }
	second := strings.Replace(fifo, `["0s", "1m", "2m"]`, `["0s", "1m"]`, 1)
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config: day(host, fifo+", "+second),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("jobs"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue(addr, team("submitted"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue(addr, team("finished"), knownvalue.Int64Exact(5)),
			},
		}}
	})
}
