// Package kueue holds the resources and data sources for Kueue (kueue.x-k8s.io/v1beta2).
package kueue

import "github.com/mlplatform/terraform-provider-mlplatform/internal/queue"

var (
	resourceFlavorKind            = queue.ResourceFlavorKind
	clusterQueueKind              = queue.ClusterQueueKind
	localQueueKind                = queue.LocalQueueKind
	cohortKind                    = queue.Kind("cohorts", "Cohort", false)
	workloadPriorityClassKind     = queue.Kind("workloadpriorityclasses", "WorkloadPriorityClass", false)
	topologyKind                  = queue.Kind("topologies", "Topology", false)
	admissionCheckKind            = queue.Kind("admissionchecks", "AdmissionCheck", false)
	provisioningRequestConfigKind = queue.Kind("provisioningrequestconfigs", "ProvisioningRequestConfig", false)
	// workloadKind is read only, to name the Workloads that hold a ClusterQueue being deleted.
	workloadKind = queue.WorkloadKind
)
