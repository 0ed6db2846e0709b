package kube

import (
	corev1 "k8s.io/api/core/v1"
)

// Built-in kinds that every cluster serves and more than one service group writes.

// ConfigMapKind is core/v1 ConfigMap.
var ConfigMapKind = Kind{
	GVR:        corev1.SchemeGroupVersion.WithResource("configmaps"),
	Kind:       "ConfigMap",
	Namespaced: true,
	Requires:   "Kubernetes",
}
