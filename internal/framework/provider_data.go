// Package framework holds what every resource of the provider shares on the Terraform side:
// provider data, metadata attributes, validators and the one create/read/update/delete cycle.
package framework

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// ProviderData is what the provider's Configure hands to every resource and data source.
type ProviderData struct {
	Client        *kube.Client
	DefaultLabels map[string]string
	// DefaultLabelsUnknown is true while default_labels depends on values known only at apply (e.g.
	// a cluster created in the same run): resources then plan labels_all as unknown.
	DefaultLabelsUnknown bool
	// PricingRegion is the provider's pricing_region (its default when not set), or "" while it is
	// known only at apply: GPU node pools then plan their hourly prices as unknown.
	PricingRegion string

	claims      claims             // what the resources of the configuration write, at plan
	podLabels   podLabels          // which pod labels teams require and templates carry, at plan
	capacity    plannedCapacity    // what pools supply, flavors select and queues quota, at plan
	localQueues plannedLocalQueues // which LocalQueues are declared and which templates name, at plan
	queues      plannedQueues      // LocalQueues, ClusterQueues, flavors and the templates that use them, at plan
}

// MergeLabels returns the provider's default labels overlaid with a resource's own labels.
func (p *ProviderData) MergeLabels(own map[string]string) map[string]string {
	var out map[string]string
	if p != nil { // nil before the provider is configured: no default labels
		out = maps.Clone(p.DefaultLabels)
	}
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, own)
	return out
}

// Base is embedded by resources and data sources to receive the provider data.
type Base struct {
	Provider *ProviderData
}

func (b *Base) configure(data any, diags interface{ AddError(string, string) }) {
	if data == nil { // the provider is not configured yet, e.g. during validation
		return
	}
	pd, ok := data.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *framework.ProviderData, got %T; please report this bug", data))
		return
	}
	b.Provider = pd
}

// Configure implements resource.ResourceWithConfigure.
func (b *Base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// DataSourceBase is Base for data sources.
type DataSourceBase struct{ Base }

// Configure implements datasource.DataSourceWithConfigure.
func (b *DataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}
