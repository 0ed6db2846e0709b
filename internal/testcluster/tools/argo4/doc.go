// Package argo4 pins Argo Workflows v4's workflow controller, which internal/testcluster runs to
// prove the templates on v4 as well as v3. A module of its own: v4's dependency versions differ
// from ../argo/go.mod's, and the provider compiles in v3's API only. tools.go imports it under the
// "tools" build tag; this file gives `go vet ./...` a package.
package argo4
