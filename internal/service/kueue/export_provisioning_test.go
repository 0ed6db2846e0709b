package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// ProvisioningOnKarpenter runs the apply's admission check warning for a queue of one resource
// group of flavors, with one rule applying check to on (all flavors when on is nil). Terraform's
// test framework cannot assert a warning, so the acceptance test asks it directly.
func ProvisioningOnKarpenter(ctx context.Context, c *kube.Client, check string, flavors, on []string) (diag.Diagnostics, error) {
	g := resourceGroupModel{}
	for _, f := range flavors {
		g.Flavors = append(g.Flavors, flavorQuotaModel{Name: types.StringValue(f)})
	}
	onList := types.ListNull(types.StringType)
	if on != nil {
		onList = stringList(on, onList)
	}
	m := &clusterQueueModel{
		ResourceGroups:          []resourceGroupModel{g},
		AdmissionChecksStrategy: []admissionCheckStrategyModel{{Name: types.StringValue(check), OnFlavors: onList}},
	}
	return provisioningOnKarpenter(ctx, c, m)
}
