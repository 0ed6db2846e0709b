//go:build tools

package kwok

import _ "sigs.k8s.io/kwok/cmd/kwok"
