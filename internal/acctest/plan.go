package acctest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// PlanWithoutAPICalls plans config against a stand-in API server that counts requests (see
// UnreachableCluster), and fails the test if the plan made any. want nil means the plan must
// succeed (creating everything); otherwise it must fail matching want. It runs Terraform, so only
// with TF_ACC (as resource.Test does), though it needs no cluster.
func PlanWithoutAPICalls(t *testing.T, config func(host string) string, want *regexp.Regexp) {
	t.Helper()
	host, requests := UnreachableCluster(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: ProviderFactories,
		Steps: []resource.TestStep{{
			Config:             config(host),
			PlanOnly:           true,
			ExpectNonEmptyPlan: want == nil,
			ExpectError:        want,
		}},
	})
	if n := requests(); n != 0 {
		t.Errorf("plan made %d API requests; want none", n)
	}
}

// Words matches s's words separated by any whitespace, as Terraform wraps long messages.
func Words(s string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(s), " ", `\s+`))
}
