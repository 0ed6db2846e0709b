//go:build tools

package argo

import _ "github.com/argoproj/argo-workflows/v3/cmd/workflow-controller"
