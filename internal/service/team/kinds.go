// Package team holds mlplatform_team: what a team is on the cluster (its namespace with billing
// labels, its Kueue LocalQueues, access for its members and its workflow pods, and the admission
// policy that makes every pod name its project).
package team

import (
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// The built-in kinds a team writes; every cluster serves them (ValidatingAdmissionPolicy is GA
// since Kubernetes 1.30).
var (
	namespaceKind      = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("namespaces"), Kind: "Namespace", Requires: "Kubernetes"}
	serviceAccountKind = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("serviceaccounts"), Kind: "ServiceAccount", Namespaced: true, Requires: "Kubernetes"}
	roleKind           = kube.Kind{GVR: rbacv1.SchemeGroupVersion.WithResource("roles"), Kind: "Role", Namespaced: true, Requires: "Kubernetes"}
	roleBindingKind    = kube.Kind{GVR: rbacv1.SchemeGroupVersion.WithResource("rolebindings"), Kind: "RoleBinding", Namespaced: true, Requires: "Kubernetes"}
	policyKind         = kube.Kind{GVR: admissionv1.SchemeGroupVersion.WithResource("validatingadmissionpolicies"),
		Kind: "ValidatingAdmissionPolicy", Requires: "Kubernetes 1.30 or newer"}
	policyBindingKind = kube.Kind{GVR: admissionv1.SchemeGroupVersion.WithResource("validatingadmissionpolicybindings"),
		Kind: "ValidatingAdmissionPolicyBinding", Requires: "Kubernetes 1.30 or newer"}
)
