package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const (
	insecureWithCASummary = "Conflicting provider configuration"
	insecureWithCADetail  = "`insecure = true` and `cluster_ca_certificate` cannot be used together: " +
		"`insecure` skips the verification of the API server's certificate that `cluster_ca_certificate` " +
		"configures. Remove `insecure` to verify the server with the CA bundle, or remove " +
		"`cluster_ca_certificate`."
)

var _ provider.ProviderWithConfigValidators = &mlplatformProvider{}

func (p *mlplatformProvider) ConfigValidators(context.Context) []provider.ConfigValidator {
	return []provider.ConfigValidator{insecureWithCA{}}
}

// insecureWithCA refuses insecure = true next to cluster_ca_certificate at plan: client-go would
// only refuse the pair at the first API call, in the middle of an apply.
type insecureWithCA struct{}

func (insecureWithCA) Description(context.Context) string {
	return "insecure = true conflicts with cluster_ca_certificate"
}

func (v insecureWithCA) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (insecureWithCA) ValidateProvider(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var insecure types.Bool
	var ca types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("insecure"), &insecure)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("cluster_ca_certificate"), &ca)...)
	// An unknown certificate counts as set, as in the framework's ConflictsWith validators.
	if insecure.ValueBool() && !ca.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("insecure"), insecureWithCASummary, insecureWithCADetail)
	}
}
