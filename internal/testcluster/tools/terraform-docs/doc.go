// Package terraformdocs pins terraform-docs, which writes the inputs and outputs tables of the
// modules' READMEs (see ../build.sh and `make module-docs`). A module of its own: `go install
// M@v` fails on the module proxy (it asks for the version list, which the proxy refuses), and its
// dependencies stay out of the other tools' go.mod. tools.go imports it under the "tools" build
// tag; this file gives `go vet ./...` a package.
package terraformdocs
