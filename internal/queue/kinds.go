package queue

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Requires is what a cluster must run to serve kueue.x-k8s.io/v1beta2.
const Requires = "Kueue v0.15 or newer"

// Kind is a Kueue kind served at kueue.x-k8s.io/v1beta2.
func Kind(resource, kindName string, namespaced bool) kube.Kind {
	return kube.Kind{
		GVR:        schema.GroupVersionResource{Group: kueuev1beta2.SchemeGroupVersion.Group, Version: kueuev1beta2.SchemeGroupVersion.Version, Resource: resource},
		Kind:       kindName,
		Namespaced: namespaced,
		Requires:   Requires,
	}
}

// The kinds the admission check reads, shared with the resources that write them.
var (
	ResourceFlavorKind = Kind("resourceflavors", "ResourceFlavor", false)
	ClusterQueueKind   = Kind("clusterqueues", "ClusterQueue", false)
	LocalQueueKind     = Kind("localqueues", "LocalQueue", true)
	// WorkloadKind is read only: Kueue writes Workloads for the jobs it queues.
	WorkloadKind = Kind("workloads", "Workload", true)
)
