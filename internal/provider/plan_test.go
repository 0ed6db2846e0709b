package provider_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// priorityClassConfig is a terraform_data whose output is known only after apply, a provider
// block and one WorkloadPriorityClass.
func priorityClassConfig(input, providerBody, name string) string {
	return fmt.Sprintf(`
resource "terraform_data" "cost" {
  input = %s
}

provider "mlplatform" {
  %s
}

resource "mlplatform_workload_priority_class" "test" {
  name  = %q
  value = 10
}
`, input, providerBody, name)
}

// planOnly plans config against a stand-in API server and checks that the plan made no API call.
func planOnly(t *testing.T, input, providerBody string, expectError *regexp.Regexp) {
	t.Helper()
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             priorityClassConfig(input, fmt.Sprintf("host = %q\n  %s", host, providerBody), "planned"),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ExpectError:        expectError,
		}}
	})
}

// Settings taken from another resource are unknown at plan; the plan of new objects still works.
// (That labels_all is then planned unknown is checked by TestAccProvider_defaultLabelsFromAnotherResource.)
func TestProvider_settingsKnownOnlyAtApplyPlan(t *testing.T) {
	cases := map[string]struct{ input, providerBody string }{
		"default_labels":          {`{ "billing.mlplatform.io/cost-centre" = "cc-1" }`, `default_labels = terraform_data.cost.output`},
		"one default label value": {`"cc-1"`, `default_labels = { "billing.mlplatform.io/cost-centre" = terraform_data.cost.output, team = "research" }`},
		"field_manager":           {`"terraform-ci"`, `field_manager = terraform_data.cost.output`},
		"token":                   {`"t0ken"`, `token = terraform_data.cost.output`},
		// A dynamic exec block over a value known only at apply: the whole block is unknown.
		"exec block": {`["eks"]`, `dynamic "exec" {
    for_each = terraform_data.cost.output
    content {
      api_version = "client.authentication.k8s.io/v1"
      command     = "aws"
      args        = [exec.value, "get-token"]
    }
  }`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { planOnly(t, tc.input, tc.providerBody, nil) })
	}
}

func TestProvider_insecureWithCAFailsAtPlan(t *testing.T) {
	planOnly(t, `"x"`, `insecure = true
  cluster_ca_certificate = "-----BEGIN CERTIFICATE-----"`,
		regexp.MustCompile("`insecure = true`\\s+and\\s+`cluster_ca_certificate`\\s+cannot\\s+be\\s+used\\s+together"))
}

// A field_manager that leaves no room for an instance's suffix (the apiserver takes 128
// characters) fails at plan, naming the attribute, with no API call.
func TestProvider_fieldManagerTooLongFailsAtPlan(t *testing.T) {
	planOnly(t, `"x"`, fmt.Sprintf("field_manager = %q", strings.Repeat("m", 121)),
		regexp.MustCompile(`Attribute field_manager string length must be between 1 and `+strconv.Itoa(framework.MaxFieldManagerLength)))
}
