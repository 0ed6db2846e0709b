package acctest

import (
	"fmt"
	"strings"
)

// CostCentreDefault is the provider setting most tests run with: a default label that every
// object the provider writes carries.
const CostCentreDefault = `default_labels = { "billing.mlplatform.io/cost-centre" = "cc-1234" }`

// ProviderBlock is the provider block of a test's configuration: pointed at host when it is set (a
// stand-in server, see UnreachableCluster), else at the test cluster that KUBE_CONFIG_PATHS names,
// with settings (provider arguments, e.g. CostCentreDefault) inside.
func ProviderBlock(host string, settings ...string) string {
	if host != "" {
		settings = append([]string{fmt.Sprintf("host = %q", host)}, settings...)
	}
	var b strings.Builder
	b.WriteString("\nprovider \"mlplatform\" {\n")
	for _, s := range settings {
		b.WriteString("  " + s + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}
