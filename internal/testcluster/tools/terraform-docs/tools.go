//go:build tools

package terraformdocs

import _ "github.com/terraform-docs/terraform-docs"
