package moduletest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	mlacctest "github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// refusalFiles are the plan-only test files, whose runs assert the module's refusals.
var refusalFiles = []string{"tests/plan.tftest.hcl", "tests/multikueue.tftest.hcl"}

// Every refusal of a wrong input that the module declares (each validation block of a variable,
// each precondition) is expected by a run of the plan-only test files (its expect_failures names
// the variable or resource); it needs no CLI. TestModule_everyRefusalFailsItsRun checks that the
// run really breaks that rule.
func TestModule_everyRefusalIsExpected(t *testing.T) {
	module := filepath.Join(repoRoot, "modules/ml-platform")
	rules := moduleRules(t, module)
	var expected []string
	for _, r := range refusalRuns(t, module) {
		expected = append(expected, r.expects...)
	}
	for _, r := range rules {
		if !slices.Contains(expected, r.owner) {
			t.Errorf("%s: a refusal of %s that no run of %s expects", r.at, r.owner, strings.Join(refusalFiles, " or "))
		}
	}
	t.Logf("%d refusals, their owners expected by the runs", len(rules))
}

// Each refusal the module declares fails a run that expects it: every run with expect_failures is
// planned again without them, each in a file of its own (after the runs whose outputs it reads),
// and the rules that refuse it are read from the CLI's errors (a validation block by Terraform's
// "checked by the validation rule at <file>:<line>", a precondition by its condition's line). A
// rule that fails no run expecting its variable or resource is asserted by none, whatever its
// expect_failures say. No API call is made: the provider points at a stand-in that counts them.
func TestModule_everyRefusalFailsItsRun(t *testing.T) {
	c := requireCLI(t)
	if c.name != "Terraform" {
		t.Skip("OpenTofu hands a run's outputs to later runs only after an apply, and the MultiKueue refusals read the worker run's (see TestModule_plan); the rules and runs are the CLIs' alike")
	}
	t.Parallel() // plans only, in a workspace of its own, against a stand-in of its own
	module := filepath.Join(workspace(t), "modules/ml-platform")
	rules := moduleRules(t, module)
	runs := refusalRuns(t, module)
	var filters []string
	for i, r := range runs {
		name := fmt.Sprintf("tests/refusal_%02d.tftest.hcl", i)
		if err := os.WriteFile(filepath.Join(module, name), []byte(r.alone), 0o644); err != nil {
			t.Fatal(err)
		}
		filters = append(filters, "-filter="+name)
	}
	c.must(t, module, nil, "init", "-no-color", "-input=false")
	host, requests := mlacctest.UnreachableCluster(t)
	out, _ := c.run(t, module, []string{"KUBE_HOST=" + host}, append([]string{"test", "-no-color"}, filters...)...)
	fired := refusalsFired(out, len(runs))
	asserted := map[string]bool{}
	for i, r := range runs {
		if len(fired[i]) == 0 {
			t.Errorf("%s, run %q: without expect_failures %v, no refusal of the module fails it:\n%s", r.file, r.name, r.expects, section(out, i))
		}
		for _, at := range fired[i] {
			for _, rule := range rules {
				if rule.at == at && slices.Contains(r.expects, rule.owner) {
					asserted[at] = true
				}
			}
		}
	}
	for _, rule := range rules {
		if !asserted[rule.at] {
			t.Errorf("%s: no run that expects %s fails by this refusal", rule.at, rule.owner)
		}
	}
	t.Logf("%d refusals, %d of them failing a run that expects them, over %d runs", len(rules), len(asserted), len(runs))
	if n := requests(); n != 0 {
		t.Errorf("the runs made %d API requests; want none", n)
	}
}

// rule is one refusal the module declares: owner is what expect_failures names for it (var.teams,
// mlplatform_cohort.this), at is where the CLI reports it: a validation block's first line, a
// precondition's condition's ("variables.tf:131", "main.tf:94").
type rule struct{ owner, at string }

// moduleRules are the validation blocks of the module's variables and the preconditions of its
// resources, data sources and outputs.
func moduleRules(t *testing.T, module string) []rule {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(module, "*.tf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no module files in %s: %v", module, err)
	}
	var rules []rule
	for _, f := range files {
		for _, b := range parseHCL(t, f).Blocks {
			var owner string
			body := b.Body
			switch b.Type {
			case "variable":
				owner = "var." + b.Labels[0]
			case "resource":
				owner = b.Labels[0] + "." + b.Labels[1]
			case "data":
				owner = "data." + b.Labels[0] + "." + b.Labels[1]
			case "output":
				owner = "output." + b.Labels[0]
			default:
				continue
			}
			if b.Type == "resource" || b.Type == "data" {
				body = nil
				for _, l := range b.Body.Blocks {
					if l.Type == "lifecycle" {
						body = l.Body
					}
				}
				if body == nil {
					continue
				}
			}
			for _, r := range body.Blocks {
				switch r.Type {
				case "validation":
					rules = append(rules, rule{owner, fmt.Sprintf("%s:%d", filepath.Base(f), r.TypeRange.Start.Line)})
				case "precondition", "postcondition":
					cond, ok := r.Body.Attributes["condition"]
					if !ok {
						t.Fatalf("%s: a %s without a condition", r.TypeRange, r.Type)
					}
					rules = append(rules, rule{owner, fmt.Sprintf("%s:%d", filepath.Base(f), cond.Expr.Range().Start.Line)})
				}
			}
		}
	}
	if len(rules) == 0 {
		t.Fatal("the module declares no refusal")
	}
	return rules
}

// refusalRun is a run with expect_failures: the variables and resources it names (an instance's
// key left out), and a test file of the run alone without them, after the runs it reads.
type refusalRun struct {
	file, name string
	expects    []string
	alone      string
}

// refusalRuns are the runs of refusalFiles that expect failures.
func refusalRuns(t *testing.T, module string) []refusalRun {
	t.Helper()
	var out []refusalRun
	for _, file := range refusalFiles {
		path := filepath.Join(module, file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		body := parseHCL(t, path)
		text := func(r hcl.Range) string { return string(src[r.Start.Byte:r.End.Byte]) }
		var head strings.Builder // what every run of the file shares: its variables
		runs := map[string]*hclsyntax.Block{}
		var order []string
		for _, b := range body.Blocks {
			if b.Type == "run" {
				runs[b.Labels[0]] = b
				order = append(order, b.Labels[0])
			} else {
				head.WriteString(text(b.Range()) + "\n\n")
			}
		}
		for _, a := range body.Attributes {
			head.WriteString(text(a.SrcRange) + "\n\n")
		}
		for _, name := range order {
			b := runs[name]
			ef, ok := b.Body.Attributes["expect_failures"]
			if !ok {
				continue
			}
			r := refusalRun{file: file, name: name}
			items, diags := hcl.ExprList(ef.Expr)
			if diags.HasErrors() {
				t.Fatalf("%s, run %q: expect_failures is not a list: %v", file, name, diags)
			}
			for _, item := range items {
				tr, diags := hcl.AbsTraversalForExpr(item)
				if diags.HasErrors() {
					t.Fatalf("%s, run %q: %v", file, name, diags)
				}
				r.expects = append(r.expects, traversalName(tr))
			}
			var alone strings.Builder
			alone.WriteString(head.String())
			for _, dep := range order {
				if dep != name && slices.Contains(runsRead(runs, name), dep) {
					alone.WriteString(text(runs[dep].Range()) + "\n\n")
				}
			}
			run := text(b.Range())
			cut := ef.SrcRange.Start.Byte - b.Range().Start.Byte
			alone.WriteString(run[:cut] + run[cut+len(text(ef.SrcRange)):] + "\n")
			r.alone = alone.String()
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatal("no run expects a failure")
	}
	return out
}

// runsRead are the runs whose outputs run name reads, and theirs in turn.
func runsRead(runs map[string]*hclsyntax.Block, name string) []string {
	var read []string
	var visit func(hclsyntax.Node)
	visit = func(n hclsyntax.Node) {
		_ = hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
			if e, ok := n.(*hclsyntax.ScopeTraversalExpr); ok && e.Traversal.RootName() == "run" && len(e.Traversal) > 1 {
				if a, ok := e.Traversal[1].(hcl.TraverseAttr); ok && !slices.Contains(read, a.Name) && runs[a.Name] != nil {
					read = append(read, a.Name)
					visit(runs[a.Name].Body)
				}
			}
			return nil
		})
	}
	visit(runs[name].Body)
	return read
}

// traversalName is what a reference names without its instance keys: var.teams,
// mlplatform_multikueue_cluster.worker.
func traversalName(tr hcl.Traversal) string {
	name := tr.RootName()
	for _, s := range tr[1:] {
		if a, ok := s.(hcl.TraverseAttr); ok {
			name += "." + a.Name
		}
	}
	return name
}

func parseHCL(t *testing.T, path string) *hclsyntax.Body {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := hclsyntax.ParseConfig(src, filepath.Base(path), hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return f.Body.(*hclsyntax.Body)
}

var (
	validationAt   = regexp.MustCompile(`checked by the validation rule at ([^\s:]+):(\d+),`)
	preconditionAt = regexp.MustCompile(`(?s)Error: (?:Resource|Module output value) (?:pre|post)condition failed.*?on ([^\s]+) line (\d+)`)
)

// refusalsFired reads, from the output of `test` over the files refusal_00 to refusal_<n-1>, the
// rules that failed each file's run.
func refusalsFired(out string, n int) [][]string {
	fired := make([][]string, n)
	for i := range n {
		s := section(out, i)
		for _, m := range validationAt.FindAllStringSubmatch(s, -1) {
			fired[i] = append(fired[i], m[1]+":"+m[2])
		}
		for _, m := range preconditionAt.FindAllStringSubmatch(s, -1) {
			fired[i] = append(fired[i], m[1]+":"+m[2])
		}
	}
	return fired
}

// section is what `test` printed for the file refusal_<i>: the lines from one that starts with
// its name to one that starts with another file's.
func section(out string, i int) string {
	name := fmt.Sprintf("tests/refusal_%02d.tftest.hcl...", i)
	var b strings.Builder
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "tests/") {
			in = strings.HasPrefix(line, name)
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
