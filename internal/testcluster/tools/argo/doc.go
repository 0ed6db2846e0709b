// Package argo pins Argo Workflows' workflow controller, which internal/testcluster runs. A module
// of its own: Argo's dependency versions (and its replace directive) differ from those of ../go.mod
// and ../kueue/go.mod. tools.go imports it under the "tools" build tag; this file gives
// `go vet ./...` a package.
package argo
