package kueue

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

type multiKueueClusterModel struct {
	framework.Metadata
	// Kubeconfig is the worker's kubeconfig, written into the Secret KubeconfigSecret; null when
	// that Secret is only referenced.
	Kubeconfig       types.String `tfsdk:"kubeconfig"`
	KubeconfigSecret types.String `tfsdk:"kubeconfig_secret"`
	KubeconfigPath   types.String `tfsdk:"kubeconfig_path"`
	KueueNamespace   types.String `tfsdk:"kueue_namespace"`
}

type multiKueueCluster struct{}

// The cycle finds these hooks by type assertion; this makes a signature mismatch a compile error.
var (
	_ framework.ConfigValidatorsProvider          = multiKueueCluster{}
	_ framework.ModelRefs[multiKueueClusterModel] = multiKueueCluster{}
)

// NewMultiKueueClusterResource is mlplatform_multikueue_cluster.
func NewMultiKueueClusterResource() resource.Resource {
	return framework.NewMultiResource[multiKueueClusterModel](multiKueueCluster{})
}

func (multiKueueCluster) TypeSuffix() string { return "multikueue_cluster" }

// defaultKueueNamespace is where Kueue's manager runs unless its configuration says otherwise:
// it reads a MultiKueueCluster's Secret there.
const defaultKueueNamespace = "kueue-system"

// secretName is the Secret holding the kubeconfig: kubeconfig_secret, or `<name>-kubeconfig` for
// one the resource writes.
func (m *multiKueueClusterModel) secretName() string {
	if s := m.KubeconfigSecret.ValueString(); s != "" {
		return s
	}
	return m.Name.ValueString() + "-kubeconfig"
}

// writesSecret is true when the resource writes the kubeconfig's Secret itself.
func (m *multiKueueClusterModel) writesSecret() bool {
	return !m.Kubeconfig.IsNull() && m.KubeconfigPath.IsNull()
}
