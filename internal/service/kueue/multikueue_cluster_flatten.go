package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Flatten reads where the MultiKueueCluster finds its kubeconfig and, when the resource writes
// the Secret, the kubeconfig in it: a Secret changed or deleted outside Terraform shows in the plan.
func (multiKueueCluster) Flatten(_ context.Context, _ *framework.ProviderData, live []*unstructured.Unstructured, m *multiKueueClusterModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if importing {
		m.KueueNamespace = types.StringValue(defaultKueueNamespace)
	}
	wrote := m.writesSecret()
	m.Kubeconfig = types.StringNull()
	for _, obj := range live {
		if obj == nil {
			continue
		}
		switch obj.GetKind() {
		case secretKind.Kind:
			var s corev1.Secret
			if framework.Decode(obj, "Secret", &s, &diags) {
				if data, ok := s.Data[kueuev1beta2.MultiKueueConfigSecretKey]; ok {
					m.Kubeconfig = types.StringValue(string(data))
				}
			}
		case multiKueueClusterKind.Kind:
			var c kueuev1beta2.MultiKueueCluster
			if !framework.Decode(obj, "MultiKueueCluster", &c, &diags) {
				return diags
			}
			flattenClusterSource(c.Spec.ClusterSource, m, wrote, &diags)
		}
	}
	return diags
}

// flattenClusterSource sets the kubeconfig's location. A Secret the resource writes under its
// default name leaves kubeconfig_secret as configured (null).
func flattenClusterSource(src kueuev1beta2.ClusterSource, m *multiKueueClusterModel, wrote bool, diags *diag.Diagnostics) {
	k := src.KubeConfig
	if k == nil {
		diags.AddError("MultiKueueCluster without a kubeconfig",
			"The MultiKueueCluster "+m.Name.ValueString()+" connects through a ClusterProfile (clusterProfileRef), which "+
				"this resource does not manage.")
		return
	}
	if k.LocationType == kueuev1beta2.PathLocationType {
		m.KubeconfigPath, m.KubeconfigSecret = types.StringValue(k.Location), types.StringNull()
		return
	}
	m.KubeconfigPath = types.StringNull()
	if wrote && m.KubeconfigSecret.IsNull() && k.Location == m.secretName() {
		return
	}
	m.KubeconfigSecret = types.StringValue(k.Location)
}
