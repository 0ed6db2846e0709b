package framework

import (
	"context"
	"fmt"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Quantity accepts a Kubernetes quantity (as the apiserver parses it) that is not negative.
func Quantity() validator.String { return quantityCheck{} }

// QuantityAtMost is Quantity with an upper bound, for inputs whose size decides the provider's
// own work.
func QuantityAtMost(most resource.Quantity) validator.String { return quantityCheck{most: &most} }

type quantityCheck struct{ most *resource.Quantity }

func (v quantityCheck) Description(context.Context) string {
	if v.most != nil {
		return "must be a Kubernetes quantity from 0 to " + v.most.String()
	}
	return "must be a non-negative Kubernetes quantity, e.g. `15`, `500m`, `256Gi`"
}

func (v quantityCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v quantityCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	q, err := ParseQuantity(s)
	if err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid quantity", fmt.Sprintf(
			"Attribute %s: %q is not a Kubernetes quantity (a number with an optional suffix, e.g. 15, 500m, 256Gi, 1e3): %v",
			req.Path, s, err))
		return
	}
	switch {
	case q.Sign() < 0:
		resp.Diagnostics.AddAttributeError(req.Path, "Negative quantity",
			fmt.Sprintf("Attribute %s: %q must be greater than or equal to 0", req.Path, s))
	case v.most != nil && q.Cmp(*v.most) > 0:
		resp.Diagnostics.AddAttributeError(req.Path, "Quantity out of range", fmt.Sprintf(
			"Attribute %s: %q is outside 0 to %s.", req.Path, s, v.most.String()))
	}
}

// maxQuantityExponent bounds a quantity's decimal exponent (`1e3`). The API documents no quantity
// above 2^63-1 or finer than 1n (larger ones are capped, finer ones rounded up), and Kubernetes'
// parser takes seconds to minutes on an exponent of millions (`1e-40980098`, found by FuzzQuantity),
// as would the webhooks that decode it.
const maxQuantityExponent = 1000

var decimalExponent = regexp.MustCompile(`[eE][+-]?([0-9]+)$`)

// ParseQuantity parses a quantity as the API server does, refusing first an exponent beyond
// maxQuantityExponent.
func ParseQuantity(s string) (resource.Quantity, error) {
	if m := decimalExponent.FindStringSubmatch(s); m != nil {
		if e, err := strconv.Atoi(m[1]); err != nil || e > maxQuantityExponent {
			return resource.Quantity{}, fmt.Errorf("its exponent is outside -%d to %d", maxQuantityExponent, maxQuantityExponent)
		}
	}
	return resource.ParseQuantity(s)
}

// QuantityValue is a live quantity as recorded in state: null when absent, the prior spelling
// when it means the same amount, else Kubernetes' canonical form.
func QuantityValue(live *resource.Quantity, prior types.String) types.String {
	if live == nil {
		return types.StringNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		if p, err := ParseQuantity(prior.ValueString()); err == nil && p.Cmp(*live) == 0 {
			return prior
		}
	}
	return types.StringValue(live.String())
}
