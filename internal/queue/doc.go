// Package queue answers, before a workload's template is written, whether Kueue could ever admit
// one of its pods through a LocalQueue: the queue exists, its ClusterQueue covers every requested
// resource with a flavor the pod's node selector and tolerations accept, and one pod's request
// fits that flavor's nominal quota plus borrowing limit. It reads the Kueue objects through
// internal/kube and decides with the same node-affinity and taint helpers Kueue's flavor
// assigner uses (k8s.io/component-helpers), so a template Kueue would leave pending forever is
// refused with the figures, not discovered by an ML engineer at submit time.
package queue
