package kueue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// CheckBeforeApply checks, before the flavor is written, that the Topology its topology_name names
// exists: Kueue would accept the flavor and keep every ClusterQueue that uses it inactive
// (TopologyNotFound). A Topology that cannot be read for another reason is a warning.
func (resourceFlavor) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *resourceFlavorModel) diag.Diagnostics {
	c := pd.Client
	var diags diag.Diagnostics
	if m.TopologyName.IsNull() {
		return diags
	}
	name := m.TopologyName.ValueString()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := c.Get(ctx, topologyKind, "", name)
	var ni *kube.NotInstalledError
	switch {
	case err == nil:
	case errors.As(err, &ni):
		diags.AddAttributeError(path.Root("topology_name"), "Topology not served", fmt.Sprintf(
			"Attribute topology_name: %v", err))
	case kube.IsNotFound(err):
		diags.AddAttributeError(path.Root("topology_name"), "Topology not found", fmt.Sprintf(
			"Attribute topology_name: Topology %s does not exist, so Kueue would keep every ClusterQueue that uses this "+
				"flavor inactive (TopologyNotFound). Create it first; a topology of the same configuration is created "+
				"first when topology_name refers to its `name` (e.g. mlplatform_topology.x.name).", name))
	default:
		diags.AddWarning("Topology not checked", fmt.Sprintf("Topology %s could not be read: %v", name, err))
	}
	return diags
}
