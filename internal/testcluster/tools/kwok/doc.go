// Package kwok pins KWOK's controller, which internal/testcluster runs to play the nodes Karpenter
// makes and the lives of the pods bound to them. A module of its own: KWOK's k8s.io versions differ
// from those k8s.io/kubernetes pins in ../go.mod. tools.go imports it under the "tools" build tag;
// this file gives `go vet ./...` a package.
package kwok
