package acctest_test

import (
	"path/filepath"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/listfile"
)

// Each entry of the tests that time or race (timing_tests.txt, which `make test-repeat` runs 20
// times) names a test that exists: a renamed test fails here instead of silently not repeating.
func TestTimingTests_nameRealTests(t *testing.T) {
	entries, err := listfile.Read("timing_tests.txt", "package", "test", "what it waits on or races with")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("timing_tests.txt lists no test")
	}
	funcs := map[string]map[string]bool{}
	for _, e := range entries {
		pkg, test := e.Fields[0], e.Fields[1]
		if funcs[pkg] == nil {
			funcs[pkg] = testFuncs(t, filepath.Join("..", "..", pkg))
		}
		if !funcs[pkg][test] {
			t.Errorf("timing_tests.txt:%d: %s has no test %s", e.Line, pkg, test)
		}
	}
}
