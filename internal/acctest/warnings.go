package acctest

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// PlanWarnings plans config with no API call (see TestWithoutAPICalls), which must succeed, and
// returns the warnings the provider gave while Terraform planned each resource, each once, as
// "<resource type> <attribute>: <summary>: <detail>" with its whitespace collapsed (no attribute:
// "<resource type>: ..."). terraform-plugin-testing shows the CLI's errors, never its warnings: the
// provider's server is wrapped to see them.
func PlanWarnings(t *testing.T, config func(host string) string) []string {
	t.Helper()
	var (
		mu  sync.Mutex
		got []string
	)
	record := func(typeName string, diags []*tfprotov6.Diagnostic) {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range diags {
			if d.Severity != tfprotov6.DiagnosticSeverityWarning {
				continue
			}
			at := ""
			if d.Attribute != nil {
				at = " " + d.Attribute.String()
			}
			w := strings.Join(strings.Fields(typeName+at+": "+d.Summary+": "+d.Detail), " ")
			if !slices.Contains(got, w) {
				got = append(got, w)
			}
		}
	}
	host, requests := UnreachableCluster(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"mlplatform": func() (tfprotov6.ProviderServer, error) {
				s, err := ProviderFactories["mlplatform"]()
				return warningsServer{ProviderServer: s, record: record}, err
			},
		},
		Steps: []resource.TestStep{{Config: config(host), PlanOnly: true, ExpectNonEmptyPlan: true}},
	})
	if n := requests(); n != 0 {
		t.Errorf("the plan made %d API requests; want none", n)
	}
	mu.Lock()
	defer mu.Unlock()
	return got
}

// warningsServer is the provider's server, recording the diagnostics of each resource's plan.
type warningsServer struct {
	tfprotov6.ProviderServer
	record func(typeName string, diags []*tfprotov6.Diagnostic)
}

func (s warningsServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.record(req.TypeName, resp.Diagnostics)
	}
	return resp, err
}

// WarnedOnce fails the test unless exactly one of warnings (PlanWarnings) matches the regular
// expression pattern, and returns it.
func WarnedOnce(t *testing.T, warnings []string, pattern string) string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var found []string
	for _, w := range warnings {
		if re.MatchString(w) {
			found = append(found, w)
		}
	}
	if len(found) != 1 {
		t.Errorf("%d warnings match %q; want 1. Warnings:\n%s", len(found), pattern, strings.Join(warnings, "\n"))
		return ""
	}
	return found[0]
}

// NotWarned fails the test if one of warnings (PlanWarnings) matches the regular expression
// pattern.
func NotWarned(t *testing.T, warnings []string, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	for _, w := range warnings {
		if re.MatchString(w) {
			t.Errorf("warned %q; want no warning matching %q", w, pattern)
		}
	}
}
