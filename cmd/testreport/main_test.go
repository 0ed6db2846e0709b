package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON runs `go test -json` on the fixture package (real test2json events) with env.
func goTestJSON(t *testing.T, env ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-json", ".")
	cmd.Dir = "testdata/fixture"
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.CombinedOutput() // a failing fixture exits 1: its events are what counts
	if !bytes.Contains(out, []byte(`"Action":"start"`)) {
		t.Fatalf("go test -json printed no events:\n%s", out)
	}
	return out
}

func writeSkips(t *testing.T, lines string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skips.txt")
	if err := os.WriteFile(p, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStream(t *testing.T) {
	passing := goTestJSON(t)
	failing := goTestJSON(t, "FIXTURE_FAIL=1")
	hanging := goTestJSON(t, "FIXTURE_HANG=1", "GOFLAGS=-timeout=2s")
	allowBoth := writeSkips(t, "# comment\nfixture TestSkipsWithAReason the fixture's own skip\n* TestSubtests/allowed a subtest, from any package\n")
	allowOne := writeSkips(t, "fixture TestSubtests/.* only the subtests\n")
	for _, tc := range []struct {
		name   string
		in     []byte
		skips  string
		status int
		want   []string
	}{
		{"all pass, skips allowed", passing, allowBoth, 0, []string{"--- PASS: TestPasses", "ok   fixture", "x: 5 passed, 0 failed, 2 skipped (0 not on the allow-list)"}},
		{"no allow-list checks nothing", passing, "", 0, []string{"x: 5 passed, 0 failed, 2 skipped (0 not on the allow-list)"}},
		{"a skip not on the list fails", passing, allowOne, 1, []string{"skips not on the allow-list", "fixture TestSkipsWithAReason:", "the reason it skips", "(1 not on the allow-list)"}},
		{"a failure fails and shows its output", failing, allowBoth, 1, []string{"--- FAIL: TestFailsWhenAsked", "=== output of TestFailsWhenAsked (fixture)", "a line before the failure", "asked to fail", "FAIL fixture", "x: 4 passed, 1 failed, 2 skipped"}},
		{"a timeout shows the test that never ended", hanging, allowBoth, 1, []string{"=== output of TestHangsWhenAsked (fixture), which never ended", "a line before the hang", "panic: test timed out", "FAIL fixture"}},
		{"nothing ran", []byte("no Go files\n"), "", 1, []string{"no Go files", "no package ran"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			log := filepath.Join(t.TempDir(), "test-x.json")
			status := stream(bytes.NewReader(tc.in), &out, "x", log, tc.skips, 3)
			if status != tc.status {
				t.Errorf("status %d, want %d:\n%s", status, tc.status, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the report lacks %q:\n%s", w, out.String())
				}
			}
			if raw, err := os.ReadFile(log); err != nil || !bytes.Equal(raw, tc.in) {
				t.Errorf("the log is not the stream as read (err %v)", err)
			}
		})
	}
}

func TestTimes(t *testing.T) {
	dir := t.TempDir()
	for _, label := range []string{"terraform", "tofu"} {
		if err := os.WriteFile(filepath.Join(dir, "test-"+label+".json"), goTestJSON(t), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if status := times(&out, []string{filepath.Join(dir, "test-terraform.json"), filepath.Join(dir, "test-tofu.json")}); status != 0 {
		t.Fatalf("status %d:\n%s", status, out.String())
	}
	for _, w := range []string{"terraform (s)", "tofu (s)", "fixture", "sum of packages", "first start to last end", "slowest tests (terraform):", "slowest tests (tofu):", "TestPasses"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the report lacks %q:\n%s", w, out.String())
		}
	}
}

// Two runs of the fixture package share one test binary and one pool, each with its own
// environment, flags, report and log.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "runs.txt")
	if err := os.WriteFile(spec, []byte("# two runs\n"+
		"failing\tFIXTURE_FAIL=1\t-test.run=^TestFailsWhenAsked$\t.\n"+
		"passing\t-\t-test.run=^(TestPasses|TestSubtests)$ -test.count=1\t./...\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir("testdata/fixture")
	var out bytes.Buffer
	status := runTests([]string{"-spec", spec, "-p", "2", "-logs", dir, "-bin", filepath.Join(dir, "bin"), "-skips", writeSkips(t, "fixture TestSubtests/allowed the fixture's\n")}, &out)
	if status != 1 {
		t.Errorf("status %d, want 1 (one run fails):\n%s", status, out.String())
	}
	for _, w := range []string{"[failing] --- FAIL: TestFailsWhenAsked", "[passing] --- PASS: TestPasses", "asked to fail",
		"failing (s)", "passing (s)", "failing: 0 passed, 1 failed, 0 skipped", "passing: 3 passed, 0 failed, 1 skipped (0 not on the allow-list)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the report lacks %q:\n%s", w, out.String())
		}
	}
	if bins, _ := filepath.Glob(filepath.Join(dir, "bin", "*.test")); len(bins) != 1 {
		t.Errorf("test binaries %v, want one built for both runs", bins)
	}
	for _, label := range []string{"failing", "passing"} {
		if data, err := os.ReadFile(filepath.Join(dir, "test-"+label+".json")); err != nil || !bytes.Contains(data, []byte(`"Action":"start"`)) {
			t.Errorf("the log of %s holds no stream (%v)", label, err)
		}
	}
}
