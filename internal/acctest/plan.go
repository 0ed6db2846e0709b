package acctest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestWithoutAPICalls runs the steps built for a stand-in API server (see UnreachableCluster) and
// fails the test if they made any request: what they plan or read needs no cluster. It runs
// Terraform, so only with TF_ACC (as resource.Test does), though it needs no cluster.
func TestWithoutAPICalls(t *testing.T, steps func(host string) []resource.TestStep) {
	t.Helper()
	host, requests := UnreachableCluster(t)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: ProviderFactories, Steps: steps(host)})
	if n := requests(); n != 0 {
		t.Errorf("the steps made %d API requests; want none", n)
	}
}

// PlanWithoutAPICalls plans config with no API call (see TestWithoutAPICalls). want nil means the
// plan must succeed (creating everything); otherwise it must fail matching want.
func PlanWithoutAPICalls(t *testing.T, config func(host string) string, want *regexp.Regexp) {
	t.Helper()
	TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             config(host),
			PlanOnly:           true,
			ExpectNonEmptyPlan: want == nil,
			ExpectError:        want,
		}}
	})
}

// RefusedAtPlan checks that the plan of config fails matching the regular expression pattern, in
// which each space matches any run of whitespace (see Wrapped), with no API call.
func RefusedAtPlan(t *testing.T, config func(host string) string, pattern string) {
	t.Helper()
	PlanWithoutAPICalls(t, config, Wrapped(pattern))
}

// Words matches s's words separated by any whitespace, as Terraform wraps long messages.
func Words(s string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(s), " ", `\s+`))
}

// Wrapped is the regular expression pattern with each space matching any run of whitespace, as
// Terraform wraps long messages; Words is the same for plain text.
func Wrapped(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}
