//go:build tools

package tofu

import _ "github.com/opentofu/opentofu/cmd/tofu"
