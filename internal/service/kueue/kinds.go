// Package kueue holds the resources and data sources for Kueue (kueue.x-k8s.io/v1beta2).
package kueue

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

var (
	resourceFlavorKind            = queue.ResourceFlavorKind
	clusterQueueKind              = queue.ClusterQueueKind
	localQueueKind                = queue.LocalQueueKind
	cohortKind                    = queue.Kind("cohorts", "Cohort", false)
	workloadPriorityClassKind     = queue.Kind("workloadpriorityclasses", "WorkloadPriorityClass", false)
	topologyKind                  = queue.Kind("topologies", "Topology", false)
	admissionCheckKind            = queue.Kind("admissionchecks", "AdmissionCheck", false)
	provisioningRequestConfigKind = queue.Kind("provisioningrequestconfigs", "ProvisioningRequestConfig", false)
	multiKueueConfigKind          = queue.Kind("multikueueconfigs", "MultiKueueConfig", false)
	multiKueueClusterKind         = queue.Kind("multikueueclusters", "MultiKueueCluster", false)
	// secretKind holds a MultiKueueCluster's kubeconfig, in Kueue's namespace.
	secretKind = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("secrets"), Kind: "Secret", Namespaced: true, Requires: "Kubernetes"}
	// workloadKind is read only, to name the Workloads that hold a ClusterQueue being deleted.
	workloadKind = queue.WorkloadKind
)
