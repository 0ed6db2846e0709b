// Package tools pins the binaries that internal/testcluster runs (kube-apiserver, etcd, kubectl;
// Kueue's manager is in ./kueue and Argo's workflow controller in ./argo, modules of their own).
// tools.go imports them under the "tools" build tag; this file gives `go vet ./...` a package to
// check.
package tools
