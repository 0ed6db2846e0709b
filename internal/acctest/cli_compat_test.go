package acctest_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/listfile"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/provider"
)

type compatEntry struct {
	pkg, test, where, covers string
	line                     int
}

func readCompat(t *testing.T) []compatEntry {
	t.Helper()
	lines, err := listfile.Read("cli_compat.txt", "package", "test", "where", "what it covers")
	if err != nil {
		t.Fatal(err)
	}
	var entries []compatEntry
	for _, e := range lines {
		f := e.Fields
		entries = append(entries, compatEntry{f[0], f[1], f[2], f[3], e.Line})
	}
	return entries
}

// The compatibility suite (cli_compat.txt) holds a test of every resource type's and data
// source's lifecycle, as the provider registers them, and each of its entries names a test that
// exists and a CLI that `make testacc` runs: a new resource, a renamed test or a CLI dropped
// from TF_COMPAT fails here rather than leaving the suite silently.
func TestCompatSuite_coversEveryTypeAndNamesRealTests(t *testing.T) {
	entries := readCompat(t)
	ctx := context.Background()
	p := provider.New("test")()
	var types []string
	for _, r := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		r().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mlplatform"}, &resp)
		types = append(types, resp.TypeName)
	}
	for _, d := range p.DataSources(ctx) {
		var resp datasource.MetadataResponse
		d().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "mlplatform"}, &resp)
		types = append(types, "data."+resp.TypeName)
	}
	if len(types) < 20 {
		t.Fatalf("the provider registers %d types: %v", len(types), types)
	}
	for _, typ := range types {
		word := regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(typ) + `([\s,:]|$)`)
		found := false
		for _, e := range entries {
			if word.MatchString(e.covers) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no test of the compatibility suite (cli_compat.txt) covers it", typ)
		}
	}

	compatCLIs := makeVariable(t, "TF_COMPAT")
	funcs := map[string]map[string]bool{}
	for _, e := range entries {
		if funcs[e.pkg] == nil {
			funcs[e.pkg] = testFuncs(t, filepath.Join("..", "..", e.pkg))
		}
		if !funcs[e.pkg][e.test] {
			t.Errorf("cli_compat.txt:%d: %s has no test %s", e.line, e.pkg, e.test)
		}
		if e.where != "every" && !strings.Contains(" "+compatCLIs+" ", " "+e.where+" ") {
			t.Errorf("cli_compat.txt:%d: %s runs only on %q, which is not a CLI of TF_COMPAT (%s)", e.line, e.test, e.where, compatCLIs)
		}
	}
}

// testFuncs are the top-level Test functions of the package in dir.
func testFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s (%v)", dir, err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				names[fn.Name.Name] = true
			}
		}
	}
	return names
}

// makeVariable is the default value the GNUmakefile gives a variable (NAME ?= value).
func makeVariable(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + name + `\s*\?=\s*(.*)$`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("the GNUmakefile sets no %s", name)
	}
	return strings.TrimSpace(string(m[1]))
}
