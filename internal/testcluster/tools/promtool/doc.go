// Package promtool pins Prometheus's promtool, with which the billing rules' tests run Prometheus's
// own rule engine (see ../build.sh). A module of its own, so that Prometheus's dependencies stay out
// of the provider's go.mod. tools.go imports it under the "tools" build tag; this file gives
// `go vet ./...` a package.
package promtool
