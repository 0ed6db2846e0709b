// Package kueue pins Kueue's controller manager, which internal/testcluster runs. A module of its
// own: Kueue's k8s.io versions differ from those that k8s.io/kubernetes pins in ../go.mod.
// tools.go imports it under the "tools" build tag; this file gives `go vet ./...` a package.
package kueue
