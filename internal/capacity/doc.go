// Package capacity checks a Kueue ClusterQueue's quotas against the GPU node pools its
// ResourceFlavors select: a quota for a resource the selected nodes can never expose is an
// error, and nominal quotas that add up to more than the pools can ever supply are a warning
// (over-commit can be deliberate, to let Karpenter scale). It is plain Go: callers build the
// inputs from the cluster, and map the findings back to their attributes.
package capacity
