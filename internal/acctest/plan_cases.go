package acctest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// PlanCase is one configuration planned with no API call, given the stand-in's host: Want nil
// means it must plan; otherwise its errors, as the CLI prints them (summary, the line of
// configuration, detail; unwrapped), must match Want. Its configuration carries its own provider
// block.
type PlanCase struct {
	Config func(host string) string
	Want   *regexp.Regexp
}

// PlanCases plans every case in one workspace, each case a module of its own (its own provider
// instance, so nothing one case plans is seen by another), and reports each as a subtest of its
// name. One plan of N modules costs one CLI run where N plans cost N, which is most of a refusal
// table's time. Terraform stops before planning when any configuration is invalid, so the cases
// plan in rounds: a round's refused cases leave, and the rest plan again until a round refuses
// none; the cases left then planned. It fails if any round made an API request.
func PlanCases(t *testing.T, cases map[string]PlanCase) {
	t.Helper()
	RequireCLI(t)
	host, requests := UnreachableCluster(t)
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	sort.Strings(names)
	errs, _, ok := PlanInRounds(t, names, func(batch []string) (map[string][]string, bool) {
		return planModules(t, host, batch, cases)
	})
	if !ok {
		return
	}
	if n := requests(); n != 0 {
		t.Errorf("planning the cases made %d API requests; want none", n)
	}
	for _, name := range names {
		want, got := cases[name].Want, errs[name]
		t.Run(name, func(t *testing.T) {
			switch {
			case want == nil && len(got) > 0:
				t.Errorf("refused at plan; want it planned:\n%s", strings.Join(got, "\n"))
			case want != nil && len(got) == 0:
				t.Errorf("planned without an error; want an error matching %s", want)
			case want != nil && !want.MatchString(strings.Join(got, "\n")):
				t.Errorf("refused, but no error matches %s:\n%s", want, strings.Join(got, "\n"))
			}
		})
	}
}

// PlanInRounds plans cases in rounds, for a refusal table planned as one configuration: plan
// returns the errors of each refused case of a batch (ok false when the test already failed).
// Terraform stops before planning when any resource's configuration is invalid, so a round's
// refused cases leave and the rest plan again, until a round refuses none: those, unrefused, then
// planned without an error.
func PlanInRounds[K comparable, E any](t *testing.T, cases []K, plan func(batch []K) (map[K][]E, bool)) (refused map[K][]E, unrefused []K, ok bool) {
	t.Helper()
	refused = map[K][]E{}
	pending := cases
	for round := 1; len(pending) > 0; round++ {
		found, ok := plan(pending)
		if !ok {
			return refused, pending, false
		}
		var next []K
		for _, c := range pending {
			if errs := found[c]; len(errs) > 0 {
				refused[c] = errs
			} else {
				next = append(next, c)
			}
		}
		t.Logf("round %d: %d of %d refused", round, len(pending)-len(next), len(pending))
		if len(next) == len(pending) {
			return refused, next, true
		}
		pending = next
	}
	return refused, nil, true
}

// RequireCLI skips t without TF_ACC, as resource.Test does: it needs the CLI, not a cluster.
func RequireCLI(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("needs the CLI: set TF_ACC=1 and TF_ACC_TERRAFORM_PATH")
	}
}

// planModules plans the named cases, each in module directory c<i>, and returns each case's
// errors by the file they point at; ok is false when the test already failed (an error in no
// case's file, or a CLI that could not run).
func planModules(t *testing.T, host string, names []string, cases map[string]PlanCase) (map[string][]string, bool) {
	t.Helper()
	var root strings.Builder
	root.WriteString(WorkspaceProviders)
	ws := NewWorkspace(t, "", "KUBE_CONFIG_PATHS=/nonexistent")
	dirOf := map[string]string{}
	for i, name := range names {
		dir := fmt.Sprintf("c%d", i)
		dirOf[dir] = name
		fmt.Fprintf(&root, "\n# %s\nmodule %q {\n  source = \"./%s\"\n}\n", name, dir, dir)
		config := cases[name].Config(host)
		if !strings.Contains(config, `provider "mlplatform"`) {
			t.Fatalf("case %q: its configuration has no provider block; each case needs its own", name)
		}
		writeFile(t, filepath.Join(ws.Dir, dir, "main.tf"), WorkspaceProviders+config)
	}
	ws.WriteConfig(t, root.String())
	if out, _, err := ws.Run(t, "get"); err != nil { // installs the local modules; init would look up the provider
		t.Fatalf("get: %v\n%s", err, out)
	}
	out, _, _ := ws.Run(t, "plan", "-json", "-input=false", "-refresh=false")
	found := map[string][]string{}
	ok := true
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var msg struct {
			Type       string         `json:"type"`
			Diagnostic jsonDiagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Type != "diagnostic" || msg.Diagnostic.Severity != "error" {
			continue
		}
		d := msg.Diagnostic
		text := d.human()
		name := ""
		if d.Range != nil {
			name = dirOf[strings.Split(filepath.ToSlash(d.Range.Filename), "/")[0]]
		}
		if name == "" {
			t.Errorf("an error in no case's configuration: %s", text)
			ok = false
			continue
		}
		found[name] = append(found[name], text)
	}
	if !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.Contains(l, `"type":"version"`) }) {
		t.Errorf("plan printed no JSON messages:\n%s", out)
		ok = false
	}
	return found, ok
}

// jsonDiagnostic is a diagnostic of the CLI's -json output.
type jsonDiagnostic struct {
	Severity, Summary, Detail, Address string
	Range                              *struct {
		Filename string
		Start    struct{ Line int }
	}
	Snippet *struct{ Code string }
}

// human is the diagnostic as the CLI prints it without -json (as resource.Test's ExpectError
// sees it): the summary, where it points, the line of configuration, the detail.
func (d jsonDiagnostic) human() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Error: %s\n\n", d.Summary)
	if d.Address != "" {
		fmt.Fprintf(&b, "  with %s,\n", d.Address)
	}
	if d.Range != nil {
		fmt.Fprintf(&b, "  on %s line %d:\n", d.Range.Filename, d.Range.Start.Line)
		if d.Snippet != nil {
			fmt.Fprintf(&b, "  %d: %s\n", d.Range.Start.Line, d.Snippet.Code)
		}
	}
	return b.String() + "\n" + d.Detail
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
