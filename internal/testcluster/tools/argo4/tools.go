//go:build tools

package argo4

import _ "github.com/argoproj/argo-workflows/v4/cmd/workflow-controller"
