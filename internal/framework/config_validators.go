package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// ConfigChecker is implemented by a Spec with plan-time checks that span attributes (e.g. a quota
// that must name a covered resource). The cycle forwards Terraform's ValidateResourceConfig to it;
// config values may be unknown there, and the checks skip what is not known yet.
type ConfigChecker interface {
	ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse)
}

// ConfigValidatorsProvider is implemented by a Spec with declarative resource-level validators
// (resourcevalidator.Conflicting, ...); the cycle forwards them.
type ConfigValidatorsProvider interface {
	ConfigValidators(ctx context.Context) []resource.ConfigValidator
}

var (
	_ resource.ResourceWithValidateConfig   = &Resource[Metadata, *Metadata]{}
	_ resource.ResourceWithConfigValidators = &Resource[Metadata, *Metadata]{}
)

// ValidateConfig forwards to the Spec's ValidateConfig, if it has one.
func (r *Resource[M, PM]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if c, ok := r.Spec.(ConfigChecker); ok {
		c.ValidateConfig(ctx, req, resp)
	}
}

// ConfigValidators forwards to the Spec's ConfigValidators, if it has any.
func (r *Resource[M, PM]) ConfigValidators(ctx context.Context) []resource.ConfigValidator {
	if p, ok := r.Spec.(ConfigValidatorsProvider); ok {
		return p.ConfigValidators(ctx)
	}
	return nil
}
