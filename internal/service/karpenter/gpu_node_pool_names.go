package karpenter

import (
	"context"
	"fmt"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// derivedName is a name the pool derives from its own, and the Kubernetes limit that applies to it.
type derivedName struct {
	Of     func(pool string) string
	What   string // the object, with <name> for the pool's name
	Max    int
	Reason string // why Max applies
}

// derivedNames are every name and label value the pool derives from its name. A NodePool's name
// becomes the value of the node label karpenter.sh/nodepool (and of the NodeOverlays'
// requirements), the copy's that of karpenter.k8s.aws/ec2nodeclass, and NodeOverlay names are
// plain object names.
func derivedNames() []derivedName {
	const nodeLabel = "is the value of the node label %s, which Kubernetes limits to %d"
	var out []derivedName
	for _, t := range []string{capacity.CapacityOnDemand, capacity.CapacitySpot, capacity.CapacityReserved} {
		out = append(out, derivedName{
			Of:     func(pool string) string { return pool + "-" + t },
			What:   "the NodePool <name>-" + t,
			Max:    validation.LabelValueMaxLength,
			Reason: fmt.Sprintf(nodeLabel, capacity.LabelNodePool, validation.LabelValueMaxLength),
		})
	}
	out = append(out, derivedName{
		Of:     func(pool string) string { return pool },
		What:   "the EC2NodeClass copy <name>",
		Max:    validation.LabelValueMaxLength,
		Reason: fmt.Sprintf(nodeLabel, awsv1.LabelNodeClass, validation.LabelValueMaxLength),
	})
	for _, n := range migGPUCounts {
		out = append(out, derivedName{
			Of:     func(pool string) string { return overlayName(pool, n) },
			What:   overlayName("the NodeOverlay <name>", n),
			Max:    validation.DNS1123SubdomainMaxLength,
			Reason: fmt.Sprintf("is an object name, which Kubernetes limits to %d", validation.DNS1123SubdomainMaxLength),
		})
	}
	return out
}

// poolNameLimit is the longest pool name whose derived names all stay within their limits, and
// the derived name that sets it.
func poolNameLimit() (int, derivedName) {
	var tightest derivedName
	limit := -1
	for _, d := range derivedNames() {
		if l := d.Max - len(d.Of("")); limit < 0 || l < limit {
			limit, tightest = l, d
		}
	}
	return limit, tightest
}

// poolNameLength refuses a pool name that would make a derived name or label value too long, at
// plan rather than when the API server refuses the NodePool (or, worse, Karpenter its nodes).
type poolNameLength struct{}

func (poolNameLength) Description(context.Context) string {
	limit, d := poolNameLimit()
	return fmt.Sprintf("at most %d characters: %s %s", limit, d.What, d.Reason)
}

func (v poolNameLength) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v poolNameLength) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	name := req.ConfigValue.ValueString()
	if limit, _ := poolNameLimit(); len(name) > limit {
		resp.Diagnostics.AddAttributeError(req.Path, "GPU node pool name too long",
			fmt.Sprintf("%q has %d characters; a GPU node pool's name is %s.", name, len(name), v.Description(ctx)))
	}
}
