package karpenter

import (
	"math"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

func ptr(f float64) *float64 { return &f }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// The price per unit of supplies: the arithmetic of pricing.UnitPrices on the pool's price per GPU.
func TestHourlyPrices(t *testing.T) {
	const a100 = 27.44705 / 8 // p4de.24xlarge in us-east-1, per GPU
	onDemand := func(gpus int64) capacityInput {
		return capacityInput{Type: capacity.CapacityOnDemand, MaxGPUs: gpus, Weight: 10}
	}
	spot := func(price, discount *float64) capacityInput {
		return capacityInput{Type: capacity.CapacitySpot, MaxGPUs: 8, Weight: 20, PricePerHour: price, Discount: discount}
	}
	for _, tc := range []struct {
		name   string
		in     poolInput
		region string
		want   map[string]map[string]float64 // capacity type -> resource -> price; nil: null
	}{
		{"whole GPU", poolInput{Model: "a100-80gb", Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": a100}}},
		{"all-1g.10gb: a seventh of a GPU", poolInput{Model: "a100-80gb", Strategy: "mixed", MIGConfig: "all-1g.10gb",
			Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/mig-1g.10gb": a100 / 7}}},
		{"all-balanced: by compute slices", poolInput{Model: "a100-80gb", Strategy: "mixed", MIGConfig: "all-balanced",
			Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/mig-1g.10gb": a100 / 7, "nvidia.com/mig-2g.20gb": 2 * a100 / 7, "nvidia.com/mig-3g.40gb": 3 * a100 / 7}}},
		{"profiles leaving a slice idle", poolInput{Model: "a100-80gb", Strategy: "mixed", MIGProfiles: map[string]int{"3g.40gb": 2},
			Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/mig-3g.40gb": a100 / 2}}},
		{"spot discount", poolInput{Model: "a100-80gb", Strategy: "mixed", MIGConfig: "all-1g.10gb",
			Capacity: []capacityInput{onDemand(8), spot(nil, ptr(0.6))}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/mig-1g.10gb": a100 / 7}, capacity.CapacitySpot: {"nvidia.com/mig-1g.10gb": a100 * 0.4 / 7}}},
		{"spot price", poolInput{Model: "a100-80gb", Capacity: []capacityInput{spot(ptr(12), nil)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacitySpot: {"nvidia.com/gpu": 1.5}}},
		{"spot without a price is null", poolInput{Model: "a100-80gb", Capacity: []capacityInput{onDemand(8), spot(nil, nil)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": a100}, capacity.CapacitySpot: nil}},
		{"on-demand override, also under the spot discount", poolInput{Model: "a100-80gb", Capacity: []capacityInput{
			{Type: capacity.CapacityOnDemand, MaxGPUs: 8, PricePerHour: ptr(20)}, spot(nil, ptr(0.5))}}, "eu-west-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": 2.5}, capacity.CapacitySpot: {"nvidia.com/gpu": 1.25}}},
		{"time-slicing replicas", poolInput{Model: "a100-80gb", Replicas: 4, Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": a100 / 4}}},
		// g5.xlarge: 1.006 for 1 GPU; g5.48xlarge: 16.288 for 8 (2.036 each): the dearer GPU.
		{"several instance types: the highest per GPU", poolInput{Model: "a10g", InstanceTypes: []string{"g5.xlarge", "g5.48xlarge"},
			Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": 16.288 / 8}}},
		// p5e.48xlarge has no us-east-1 price (capacity blocks only): not offered there, so p5en sets it.
		{"a type without a price is not offered", poolInput{Model: "h200", Capacity: []capacityInput{onDemand(8)}}, "us-east-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": 63.296 / 8}}},
		{"GovCloud", poolInput{Model: "t4", InstanceTypes: []string{"g4dn.metal"}, Capacity: []capacityInput{onDemand(8)}}, "us-gov-west-1",
			map[string]map[string]float64{capacity.CapacityOnDemand: {"nvidia.com/gpu": 9.862 / 8}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, perr := planPool(tc.in)
			if perr != nil {
				t.Fatal(perr.Msg)
			}
			for _, c := range tc.in.Capacity {
				got, note := p.hourlyPrices(tc.in, c, tc.region)
				want := tc.want[c.Type]
				if note != "" || (got == nil) != (want == nil) || len(got) != len(want) {
					t.Fatalf("%s: got %v (note %q), want %v", c.Type, got, note, want)
				}
				for r, price := range want {
					if !near(got[r], price) {
						t.Errorf("%s %s = %v, want %v", c.Type, r, got[r], price)
					}
				}
			}
		})
	}
}

// Without a table price nor a pool price, the price is null and the note says why.
func TestHourlyPrices_noTablePrice(t *testing.T) {
	for _, tc := range []struct {
		name, region, want string
		in                 poolInput
	}{
		{"region without a table", "eu-west-1", `no on-demand prices for region "eu-west-1"`,
			poolInput{Model: "a100-80gb", Capacity: []capacityInput{{Type: capacity.CapacitySpot, MaxGPUs: 8, Discount: ptr(0.5)}}}},
		{"type not priced", "us-east-1", `no on-demand price for instance type "p5e.48xlarge" in us-east-1`,
			poolInput{Model: "h200", InstanceTypes: []string{"p5e.48xlarge"}, Capacity: []capacityInput{{Type: capacity.CapacityOnDemand, MaxGPUs: 8}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, perr := planPool(tc.in)
			if perr != nil {
				t.Fatal(perr.Msg)
			}
			got, note := p.hourlyPrices(tc.in, tc.in.Capacity[0], tc.region)
			if got != nil || !strings.Contains(note, tc.want) {
				t.Errorf("got %v, note %q; want nil and a note containing %q", got, note, tc.want)
			}
		})
	}
}

// A price per instance needs one GPU count among the instance types.
func TestPlanPool_pricePerInstanceNeedsOneGPUCount(t *testing.T) {
	in := poolInput{Model: "h100", InstanceTypes: []string{"p5.48xlarge", "p5.4xlarge"},
		Capacity: []capacityInput{{Type: capacity.CapacitySpot, MaxGPUs: 8, PricePerHour: ptr(20)}}}
	_, perr := planPool(in)
	if perr == nil || strings.Join([]string{perr.Path[0].(string), perr.Path[1].(string)}, ".") != "spot.price_per_hour" ||
		!strings.Contains(perr.Msg, "p5.48xlarge has 8 GPUs and p5.4xlarge 1") {
		t.Fatalf("got %+v", perr)
	}
	in.Capacity[0].PricePerHour, in.Capacity[0].Discount = nil, ptr(0.5)
	if _, perr := planPool(in); perr != nil {
		t.Errorf("a discount needs no single GPU count: %v", perr.Msg)
	}
}
