// Package provider is the mlplatform Terraform provider: its schema, configuration and the list
// of resources and data sources.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/argo"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/nvidia"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/preflight"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/simulation"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/team"
)

var _ provider.Provider = &mlplatformProvider{}

type mlplatformProvider struct {
	version string
}

// New returns a constructor for the provider, as providerserver.Serve wants it.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &mlplatformProvider{version: version} }
}

func (p *mlplatformProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "mlplatform"
	resp.Version = p.version
}

func (p *mlplatformProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		kueue.NewResourceFlavorResource,
		kueue.NewClusterQueueResource,
		kueue.NewCohortResource,
		kueue.NewLocalQueueResource,
		kueue.NewWorkloadPriorityClassResource,
		kueue.NewTopologyResource,
		kueue.NewAdmissionCheckResource,
		kueue.NewProvisioningRequestConfigResource,
		kueue.NewMultiKueueClusterResource,
		kueue.NewMultiKueueConfigResource,
		karpenter.NewNodeClassResource,
		karpenter.NewGPUNodePoolResource,
		nvidia.NewMigConfigResource,
		nvidia.NewTimeSlicingConfigResource,
		argo.NewTrainingJobTemplateResource,
		argo.NewTrainingScheduleResource,
		team.NewTeamResource,
		monitoring.NewGPUBillingRulesResource,
		monitoring.NewGPUDashboardResource,
	}
}

func (p *mlplatformProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		kueue.NewClusterQueueDataSource,
		nvidia.NewGPUDataSource,
		nvidia.NewMigLayoutDataSource,
		simulation.NewDataSource,
		preflight.NewDataSource,
	}
}
