package faulttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Every configuration of the bad-input corpus (badinput_corpus_test.go), over every resource type
// the provider serves (checkCorpusTypes), is refused at plan with an error that points at the
// attribute (pointsAt), and the provider makes no API call doing so: it points at a stand-in
// server that counts requests. The corpus is planned in rounds of one configuration holding every
// case not refused yet (Terraform reports every resource's errors, but stops before planning when
// any fails validation), and the bases alone must plan cleanly, so that each refusal is the
// mutation's.
func TestFault_badInputRefusedAtPlanWithoutAPICalls(t *testing.T) {
	acctest.RequireCLI(t)
	checkCorpusTypes(t)
	host, requests := acctest.UnreachableCluster(t)

	var controls []badCase
	for _, k := range slices.Sorted(maps.Keys(bases)) {
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
	indices := make([]int, len(cases))
	for i := range indices {
		indices[i] = i
	}
	refused, unrefused, _ := acctest.PlanInRounds(t, indices, func(batch []int) (map[int][]refusal, bool) {
		found := map[int][]refusal{}
		batchCases := make([]badCase, len(batch))
		for i, ci := range batch {
			batchCases[i] = cases[ci]
		}
		for i, errs := range planCases(t, host, batchCases) {
			found[batch[i]] = errs
		}
		return found, true
	})
	for _, ci := range unrefused {
		c := cases[ci]
		t.Errorf("%s, %s: planned without an error", c.resource, c.what)
	}
	for ci, errs := range refused {
		c := cases[ci]
		if !slices.ContainsFunc(errs, func(r refusal) bool { return pointsAt(r, c.attr) }) {
			t.Errorf("%s, %s: refused, but no error points at %s: %v", c.resource, c.what, c.attr, errs)
		}
	}
	if n := requests(); n != 0 {
		t.Errorf("planning the corpus made %d API requests; want none", n)
	}
}

// The bad-input corpus has a base for each resource type the provider serves, none for a type it
// does not, and bad cases of each type's own besides the metadata cases every type gets.
func TestBadInputCorpus_everyResourceType(t *testing.T) { checkCorpusTypes(t) }

func checkCorpusTypes(t *testing.T) {
	t.Helper()
	served, _ := acctest.ProviderTypes(t)
	acctest.CheckEveryType(t, "the bad-input corpus", served, slices.Sorted(maps.Keys(bases)))
	own := map[string]int{}
	for _, c := range corpus() {
		own[c.resource]++
	}
	for _, c := range metadataCases() {
		own[c.resource]--
	}
	for _, typ := range served {
		if own[typ] == 0 && bases[typ] != nil {
			t.Errorf("the bad-input corpus has no case of %s's own, only the metadata cases", typ)
		}
	}
}

// planCases plans one configuration with each case as a resource (case i is resource "c<i>") and
// returns, per case, the errors Terraform reports inside its resource.
func planCases(t *testing.T, host string, cases []badCase) map[int][]refusal {
	t.Helper()
	var b strings.Builder
	b.WriteString(acctest.WorkspaceProviders)
	fmt.Fprintf(&b, `
provider "mlplatform" {
  host = %q
}
`, host)
	for i, c := range cases {
		fmt.Fprintf(&b, "\nresource %q \"c%d\" {\n  %s\n}\n", c.resource, i, strings.Join(body(c), "\n  "))
	}
	config := b.String()
	blocks := caseBlocks(t, config, len(cases))
	ws := acctest.NewWorkspace(t, config, "KUBE_CONFIG_PATHS=/nonexistent")
	out, _, _ := ws.Run(t, "plan", "-json", "-input=false")
	found := map[int][]refusal{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic struct {
				Severity, Summary, Detail string
				Range                     *struct {
					Start struct{ Byte int } `json:"start"`
					End   struct{ Byte int } `json:"end"`
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
		r := refusal{text: text, from: d.Range.Start.Byte, to: d.Range.End.Byte}
		i := slices.IndexFunc(blocks, func(b *hclsyntax.Block) bool { return covers(b.Range(), r.from, r.to) })
		if i < 0 {
			t.Errorf("an error at bytes %d-%d, in no case: %s", r.from, r.to, text)
			continue
		}
		r.body, r.src = blocks[i].Body, config[r.from:r.to]
		found[i] = append(found[i], r)
	}
	return found
}

// caseBlocks are the n resource blocks of config, case i's at i.
func caseBlocks(t *testing.T, config string, n int) []*hclsyntax.Block {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(config), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("the corpus's configuration does not parse: %v", diags)
	}
	blocks := make([]*hclsyntax.Block, n)
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		var i int
		if b.Type == "resource" && len(b.Labels) == 2 {
			if _, err := fmt.Sscanf(b.Labels[1], "c%d", &i); err == nil && i < n {
				blocks[i] = b
			}
		}
	}
	if slices.Contains(blocks, nil) {
		t.Fatal("a case's resource block is missing from the corpus's configuration")
	}
	return blocks
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
