package kueue

// Exported for the package's external (acceptance) tests.
var (
	ResourceFlavorKind        = resourceFlavorKind
	ClusterQueueKind          = clusterQueueKind
	CohortKind                = cohortKind
	LocalQueueKind            = localQueueKind
	WorkloadPriorityClassKind = workloadPriorityClassKind
	WorkloadKind              = workloadKind
)

// TopologyKind is exported for the acceptance tests.
var TopologyKind = topologyKind

// Exported for the acceptance tests of admission checks.
var (
	AdmissionCheckKind            = admissionCheckKind
	ProvisioningRequestConfigKind = provisioningRequestConfigKind
	MultiKueueClusterKind         = multiKueueClusterKind
	MultiKueueConfigKind          = multiKueueConfigKind
	SecretKind                    = secretKind
)
