// Package capacity is the contract between GPU node pools and what reads them: the NodePool kind,
// node labels, capacity types and annotations a pool writes (nodepool.go), how its NodePools select
// instance types, by name or by requirements (selection.go), what a pool supplies
// (supply.go), and the check of a Kueue ClusterQueue's quotas against the pools its
// ResourceFlavors select: a quota for a resource the selected nodes can never expose is an error,
// and nominal quotas that add up to more than the pools can ever supply are a warning
// (over-commit can be deliberate, to let Karpenter scale); and which flavors with GPU quota select
// no pool's nodes at all (unselected.go). It is plain Go: callers build the
// inputs from the cluster, and map the findings back to their attributes.
package capacity
