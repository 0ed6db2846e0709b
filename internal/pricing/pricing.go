// Package pricing holds EC2 on-demand hourly prices of the catalog's GPU instance types and the
// arithmetic that turns an instance price into a price per GPU, per MIG slice or per time-slice
// replica.
//
// # Where the prices come from
//
// The prices are karpenter-provider-aws's static on-demand price tables, the ones Karpenter starts
// with before it reaches the AWS Pricing API, imported from its package pkg/providers/pricing at
// the version in go.mod (see SourceVersion; a test keeps the two equal):
//
//   - zz_generated.pricing_aws.go, generated 2026-07-20T13:44:30Z: us-east-1;
//   - zz_generated.pricing_aws_us_gov.go, generated 2026-08-24T13:29:56Z: us-gov-east-1 and
//     us-gov-west-1.
//
// Both are in US dollars per instance-hour. The package's third table (cn-north-1) is in Chinese
// yuan and is left out, so every price here is in USD. No other region has a table: a pool there
// needs its prices given by hand (price_per_hour). Importing the package costs about 0.3 MB of
// binary (stripped) and brings the AWS SDK's ec2, pricing, ssm, sqs, iam and eks clients into the
// build, none of which this provider calls.
package pricing

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	awspricing "github.com/aws/karpenter-provider-aws/pkg/providers/pricing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

const (
	// DefaultRegion is the region whose prices apply unless another is chosen.
	DefaultRegion = "us-east-1"
	// SourcePackage and SourceVersion name where the prices come from.
	SourcePackage = "github.com/aws/karpenter-provider-aws/pkg/providers/pricing"
	SourceVersion = "v1.15.2"
	// Currency of every price.
	Currency = "USD"
)

// Table is one of the upstream price tables this package reads.
type Table struct {
	File        string // in SourcePackage
	GeneratedAt string // as the file's header says
	prices      map[string]map[ec2types.InstanceType]float64
}

// Tables are the upstream tables in use, in USD.
var Tables = []Table{
	{File: "zz_generated.pricing_aws.go", GeneratedAt: "2026-07-20T13:44:30Z", prices: awspricing.InitialOnDemandPricesAWS},
	{File: "zz_generated.pricing_aws_us_gov.go", GeneratedAt: "2026-08-24T13:29:56Z", prices: awspricing.InitialOnDemandPricesUSGov},
}

// Regions lists the regions with prices, sorted.
func Regions() []string {
	seen := map[string]bool{}
	for _, t := range Tables {
		for r := range t.prices {
			seen[r] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// Source describes where the prices of region come from, e.g. "karpenter-provider-aws v1.15.2
// zz_generated.pricing_aws.go (generated 2026-07-20T13:44:30Z)"; "" for a region without prices.
func Source(region string) string {
	for _, t := range Tables {
		if _, ok := t.prices[region]; ok {
			return fmt.Sprintf("karpenter-provider-aws %s %s (generated %s)", SourceVersion, t.File, t.GeneratedAt)
		}
	}
	return ""
}

// OnDemand is the on-demand price in USD per hour of one instance of instanceType in region.
func OnDemand(region, instanceType string) (float64, error) {
	for _, t := range Tables {
		prices, ok := t.prices[region]
		if !ok {
			continue
		}
		if p, ok := prices[ec2types.InstanceType(strings.ToLower(strings.TrimSpace(instanceType)))]; ok {
			return p, nil
		}
		return 0, fmt.Errorf("no on-demand price for instance type %q in %s in %s", instanceType, region, Source(region))
	}
	return 0, fmt.Errorf("no on-demand prices for region %q: the price tables (karpenter-provider-aws %s) cover %s only",
		region, SourceVersion, strings.Join(Regions(), ", "))
}

// UnitPrices shares the hourly price of one GPU among the extended resources the GPU exposes
// (e.ResourcesPerGPU), in proportion to their compute: a unit of resource r costs
//
//	gpuPrice * w(r) / sum over resources s of (units of s per GPU * w(s))
//
// where w is the compute slices of a MIG profile under the mixed strategy ("1g" = 1, "3g" = 3) and
// 1 otherwise (a whole GPU, a time-slicing replica, or a MIG device under the single strategy, where
// every device of a GPU has one profile). The units of one GPU thus always add up to the GPU's
// price, and a slice left idle by the layout is paid by the slices in use: on an A100 under
// all-1g.10gb (7 x 1g) a 1g.10gb costs 1/7 of the GPU; under all-balanced (2 x 1g.10gb, 1 x
// 2g.20gb, 1 x 3g.40gb: 7 compute slices) 1/7, 2/7 and 3/7; under 3g.40gb x2 (6 of 7 slices) each
// 3g.40gb costs 1/2. A GPU that exposes nothing (MIG on, no instances) has no unit prices.
//
// On a node split into parts, each part's GPUs share their price among what they expose, and a
// resource two parts expose at different prices takes the higher, so that units x prices bound
// what the node costs.
func UnitPrices(e *gpu.Exposure, gpuPrice float64) map[string]float64 {
	if e.Parts == nil {
		return gpuUnitPrices(e.Model, e.MIG, e.Strategy, e.ResourcesPerGPU, gpuPrice)
	}
	out := map[string]float64{}
	for _, p := range e.Parts {
		for r, price := range gpuUnitPrices(e.Model, p.MIG, e.Strategy, p.ResourcesPerGPU, gpuPrice) {
			out[r] = max(out[r], price)
		}
	}
	return out
}

// gpuUnitPrices shares gpuPrice among what one GPU under cfg exposes (perGPU).
func gpuUnitPrices(m *gpu.Model, cfg gpu.MIGConfig, strategy gpu.Strategy, perGPU map[string]int64, gpuPrice float64) map[string]float64 {
	weight := map[string]int{}
	if cfg.Enabled && strategy == gpu.StrategyMixed {
		for name := range cfg.Layout {
			if p, err := m.Profile(name); err == nil {
				weight[p.ResourceName()] = p.ComputeSlices
			}
		}
	}
	w := func(r string) float64 {
		if n, ok := weight[r]; ok {
			return float64(n)
		}
		return 1
	}
	total := 0.0
	for r, n := range perGPU {
		total += float64(n) * w(r)
	}
	out := map[string]float64{}
	if total == 0 {
		return out
	}
	for r, n := range perGPU {
		if n > 0 {
			out[r] = gpuPrice * w(r) / total
		}
	}
	return out
}
