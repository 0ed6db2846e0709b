//go:build tools

package karpenter

import _ "sigs.k8s.io/karpenter/kwok"
