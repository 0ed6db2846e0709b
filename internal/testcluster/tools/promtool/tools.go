//go:build tools

package promtool

import _ "github.com/prometheus/prometheus/cmd/promtool"
