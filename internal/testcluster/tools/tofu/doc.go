// Package tofu pins OpenTofu's CLI, on which the acceptance tests run a second time (see
// ../build.sh). A module of its own: OpenTofu replaces hashicorp/hcl with its fork, so it cannot
// be built with `go install M@v`, and its dependencies stay out of the other tools' go.mod.
// tools.go imports it under the "tools" build tag; this file gives `go vet ./...` a package.
package tofu
