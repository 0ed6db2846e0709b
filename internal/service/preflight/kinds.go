// Package preflight holds data.mlplatform_preflight: it reads how the cluster runs the controllers
// the platform relies on (Kueue's configuration, Karpenter's feature gates, the NVIDIA GPU
// Operator's ClusterPolicy and dcgm-exporter) and reports each setting that differs from what the
// platform needs, with the setting to change. It only reads.
package preflight

import (
	nvidiav1 "github.com/NVIDIA/gpu-operator/api/nvidia/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// The kinds the preflight reads; it writes none.
var (
	configMapKind     = kube.ConfigMapKind
	namespaceKind     = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("namespaces"), Kind: "Namespace", Requires: "Kubernetes"}
	serviceKind       = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("services"), Kind: "Service", Namespaced: true, Requires: "Kubernetes"}
	deploymentKind    = kube.Kind{GVR: appsv1.SchemeGroupVersion.WithResource("deployments"), Kind: "Deployment", Namespaced: true, Requires: "Kubernetes"}
	daemonSetKind     = kube.Kind{GVR: appsv1.SchemeGroupVersion.WithResource("daemonsets"), Kind: "DaemonSet", Namespaced: true, Requires: "Kubernetes"}
	clusterPolicyKind = kube.Kind{
		GVR: nvidiav1.SchemeGroupVersion.WithResource("clusterpolicies"), Kind: "ClusterPolicy", Requires: "the NVIDIA GPU Operator",
	}
)
