package faulttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Every configuration of the bad-input corpus (badinput_corpus_test.go), over every resource type
// the provider registers, is refused at plan with an error that names the attribute, and the
// provider makes no API call doing so: it points at a stand-in server that counts requests. The
// corpus is planned in rounds of one configuration holding every case not refused yet (Terraform
// reports every resource's errors, but stops before planning when any fails validation), and the
// bases alone must plan cleanly, so that each refusal is the mutation's.
func TestFault_badInputRefusedAtPlanWithoutAPICalls(t *testing.T) {
	requireCLI(t)
	host, requests := acctest.UnreachableCluster(t)

	var kinds []string
	for k := range bases {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var controls []badCase
	for _, k := range kinds {
		controls = append(controls, badCase{resource: k, what: "base"})
	}
	if diags := planCases(t, host, controls); len(diags) > 0 {
		t.Fatalf("the bases do not plan cleanly: %v", diags)
	}

	cases := corpus()
	perType := map[string]int{}
	for _, c := range cases {
		perType[c.resource]++
	}
	t.Logf("%d bad configurations: %v", len(cases), perType)
	refused := map[int][]string{} // case index in cases -> its error messages
	pending := make([]int, len(cases))
	for i := range pending {
		pending[i] = i
	}
	for round := 1; len(pending) > 0; round++ {
		batch := make([]badCase, len(pending))
		for i, ci := range pending {
			batch[i] = cases[ci]
		}
		diags := planCases(t, host, batch)
		var next []int
		for i, ci := range pending {
			if msgs := diags[i]; len(msgs) > 0 {
				refused[ci] = msgs
			} else {
				next = append(next, ci)
			}
		}
		t.Logf("round %d: %d of %d refused", round, len(pending)-len(next), len(pending))
		if len(next) == len(pending) {
			for _, ci := range next {
				c := cases[ci]
				t.Errorf("%s, %s: planned without an error", c.resource, c.what)
			}
			break
		}
		pending = next
	}
	for ci, msgs := range refused {
		c := cases[ci]
		if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.attr) }) {
			t.Errorf("%s, %s: refused, but no error names %s: %q", c.resource, c.what, c.attr, msgs)
		}
	}
	if n := requests(); n != 0 {
		t.Errorf("planning the corpus made %d API requests; want none", n)
	}
}

// planCases plans one configuration with each case as a resource (case i at lines of its own)
// and returns, per case, the summary and detail of each error reported inside it.
func planCases(t *testing.T, host string, cases []badCase) map[int][]string {
	t.Helper()
	var b strings.Builder
	b.WriteString(acctest.WorkspaceProviders)
	fmt.Fprintf(&b, `
provider "mlplatform" {
  host = %q
}
`, host)
	line := strings.Count(b.String(), "\n") + 1
	type span struct{ from, to int }
	spans := make([]span, len(cases))
	for i, c := range cases {
		block := fmt.Sprintf("\nresource %q \"c%d\" {\n  %s\n}\n", c.resource, i, strings.Join(body(c), "\n  "))
		spans[i] = span{line, line + strings.Count(block, "\n")}
		line += strings.Count(block, "\n")
		b.WriteString(block)
	}
	ws := acctest.NewWorkspace(t, b.String(), "KUBE_CONFIG_PATHS=/nonexistent")
	out, _, _ := ws.Run(t, "plan", "-json", "-input=false")
	found := map[int][]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic struct {
				Severity, Summary, Detail string
				Range                     *struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Type != "diagnostic" || msg.Diagnostic.Severity != "error" {
			continue
		}
		d := msg.Diagnostic
		text := strings.Join(strings.Fields(d.Summary+": "+d.Detail), " ")
		if d.Range == nil {
			t.Errorf("an error outside any resource: %s", text)
			continue
		}
		i := slices.IndexFunc(spans, func(s span) bool { return d.Range.Start.Line >= s.from && d.Range.Start.Line < s.to })
		if i < 0 {
			t.Errorf("an error at line %d, in no case: %s", d.Range.Start.Line, text)
			continue
		}
		found[i] = append(found[i], text)
	}
	return found
}

// body is a case's resource body: its base with the case's parts replacing those of the same
// name, or added.
func body(c badCase) []string {
	var out []string
	done := map[string]bool{}
	for _, p := range bases[c.resource] {
		hcl := p.hcl
		for _, s := range c.set {
			if s.key == p.key {
				hcl, done[s.key] = s.hcl, true
			}
		}
		out = append(out, hcl)
	}
	for _, s := range c.set {
		if !done[s.key] {
			out = append(out, s.hcl)
		}
	}
	return out
}
