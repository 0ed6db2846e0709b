// Package kueue holds the resources and data sources for Kueue (kueue.x-k8s.io/v1beta2).
package kueue

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// requires is what a cluster must run to serve kueue.x-k8s.io/v1beta2.
const requires = "Kueue v0.15 or newer"

func kind(resource, kindName string, namespaced bool) kube.Kind {
	return kube.Kind{
		GVR:        schema.GroupVersionResource{Group: kueuev1beta2.GroupVersion.Group, Version: kueuev1beta2.GroupVersion.Version, Resource: resource},
		Kind:       kindName,
		Namespaced: namespaced,
		Requires:   requires,
	}
}

var resourceFlavorKind = kind("resourceflavors", "ResourceFlavor", false)

var (
	clusterQueueKind          = kind("clusterqueues", "ClusterQueue", false)
	cohortKind                = kind("cohorts", "Cohort", false)
	localQueueKind            = kind("localqueues", "LocalQueue", true)
	workloadPriorityClassKind = kind("workloadpriorityclasses", "WorkloadPriorityClass", false)
	// workloadKind is read only, to name the Workloads that hold a ClusterQueue being deleted.
	workloadKind = kind("workloads", "Workload", true)
)
