// Package karpenter pins Karpenter's core controllers with its KWOK cloud provider
// (sigs.k8s.io/karpenter/kwok), which internal/testcluster runs to launch nodes from the NodePools
// the provider writes. A module of its own, at the sigs.k8s.io/karpenter version the provider's
// go.mod pins: its k8s.io versions differ from ../go.mod's. tools.go imports it under the "tools"
// build tag; this file gives `go vet ./...` a package.
package karpenter
