package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Refs is the MultiKueueCluster; the Secret it reads is named by the model (ModelRefs).
func (multiKueueCluster) Refs(_, name string) []framework.ObjectRef {
	return []framework.ObjectRef{{Kind: multiKueueClusterKind, Name: name}}
}

// ModelRefs is the kubeconfig's Secret when the resource writes it; a referenced Secret is never
// read, changed or deleted.
func (multiKueueCluster) ModelRefs(m *multiKueueClusterModel) []framework.ObjectRef {
	if !m.writesSecret() {
		return nil
	}
	return []framework.ObjectRef{{Kind: secretKind, Namespace: m.KueueNamespace.ValueString(), Name: m.secretName()}}
}

// Expand writes the Secret first, so that Kueue finds it when it first reconciles the cluster.
func (c multiKueueCluster) Expand(_ context.Context, _ *framework.ProviderData, m *multiKueueClusterModel, meta framework.ObjectMeta) ([]framework.Object, diag.Diagnostics) {
	var objs []framework.Object
	location := kueueac.KubeConfig().WithLocationType(kueuev1beta2.SecretLocationType).WithLocation(m.secretName())
	if p := m.KubeconfigPath.ValueString(); p != "" {
		location = kueueac.KubeConfig().WithLocationType(kueuev1beta2.PathLocationType).WithLocation(p)
	}
	if refs := c.ModelRefs(m); len(refs) > 0 {
		secret := corev1ac.Secret(refs[0].Name, refs[0].Namespace).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).
			WithType(corev1.SecretTypeOpaque).
			WithData(map[string][]byte{kueuev1beta2.MultiKueueConfigSecretKey: []byte(m.Kubeconfig.ValueString())})
		objs = append(objs, framework.Object{Ref: refs[0], Body: secret})
	}
	cluster := kueueac.MultiKueueCluster(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).
		WithSpec(kueueac.MultiKueueClusterSpec().WithClusterSource(kueueac.ClusterSource().WithKubeConfig(location)))
	return append(objs, framework.Object{Ref: c.Refs("", meta.Name)[0], Body: cluster}), nil
}
