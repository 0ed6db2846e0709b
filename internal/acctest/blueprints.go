package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// BlueprintObject is one object a published blueprint declares: the object the HCL writes for it,
// and the blueprint's field values, written by hand from the file the HCL names.
type BlueprintObject struct {
	Kind      kube.Kind
	Namespace string
	Name      string
	Want      map[string]any
}

// Blueprints tests the files of examples/blueprints that owns selects (by base name), one subtest
// each: the migration guide includes the file by reference (its template's tffile, beside the
// differences) and shows it as it is once rendered, and the file, after provider (a provider
// block), applies and writes objects that carry the blueprint's values. want holds, for exactly the files owns selects, the objects to check.
// preCheck runs before each apply, with the file's subtest; blueprints use fixed names, so it
// should at least RequireOwnCluster.
func Blueprints(t *testing.T, owns func(file string) bool, want map[string][]BlueprintObject, provider string, preCheck func(*testing.T)) {
	t.Helper()
	root := repoRoot(t)
	guideTemplate, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(migrationGuideTemplate)))
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(migrationGuide)))
	if err != nil {
		t.Fatal(err)
	}
	all, err := filepath.Glob(filepath.Join(root, "examples", "blueprints", "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if owns(filepath.Base(f)) {
			files = append(files, f)
		}
	}
	if len(files) != len(want) {
		known := make([]string, 0, len(want))
		for name := range want {
			known = append(known, name)
		}
		sort.Strings(known)
		t.Fatalf("examples/blueprints has %d files of this package, the test knows %d (%s)", len(files), len(want), strings.Join(known, ", "))
	}
	for _, f := range files {
		hcl, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objects, ok := want[filepath.Base(f)]
		if !ok {
			t.Fatalf("%s: no expected values", f)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkGuideShows(t, string(guideTemplate), string(guide), filepath.Base(f), string(hcl))
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { preCheck(t) },
				ProtoV6ProviderFactories: ProviderFactories,
				Steps: []resource.TestStep{{
					Config: provider + string(hcl),
					Check: func(*terraform.State) error {
						for _, o := range objects {
							at := o.Name
							if o.Namespace != "" {
								at = o.Namespace + "/" + o.Name
							}
							if err := contains(o.Want, Get(t, o.Kind, o.Namespace, o.Name).Object, at); err != nil {
								return err
							}
						}
						return nil
					},
				}},
			})
		})
	}
}

// The guide that shows the blueprints: tfplugindocs renders migrationGuide from
// migrationGuideTemplate (`make generate`).
const (
	migrationGuideTemplate = "templates/guides/migrating-from-a-blueprint.md.tmpl"
	migrationGuide         = "docs/guides/migrating-from-a-blueprint.md"
)

// checkGuideShows fails t unless the guide's template includes examples/blueprints/<file> by
// reference and the rendered guide shows hcl, the file's text that the test applies, as
// tfplugindocs' tffile renders it (trimmed, in a terraform code block): the guide shows what is
// applied, and a stale guide fails here as well as in `make check-generated`.
func checkGuideShows(t *testing.T, template, rendered, file, hcl string) {
	t.Helper()
	ref := fmt.Sprintf(`{{ tffile "examples/blueprints/%s" }}`, file)
	if !strings.Contains(template, ref) {
		t.Errorf("%s does not include examples/blueprints/%s: add %s", migrationGuideTemplate, file, ref)
	}
	if !strings.Contains(rendered, "```terraform\n"+strings.TrimSpace(hcl)+"\n```") {
		t.Errorf("%s does not show examples/blueprints/%s as it is: run `make generate`", migrationGuide, file)
	}
}

// repoRoot is the directory of go.mod above the test's working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// contains reports where got lacks a value of want: maps hold want's keys, lists hold an element
// containing each of want's elements (the provider's objects add requirements and labels), and
// scalars are equal, quantities by value (a blueprint's limits.cpu "1000" is the provider's "1k").
func contains(want, got any, at string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s = %v, want an object", at, got)
		}
		for k, v := range w {
			if err := contains(v, g[k], at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s = %v, want a list", at, got)
		}
		for i, v := range w {
			found := false
			for _, e := range g {
				found = found || contains(v, e, at) == nil
			}
			if !found {
				return fmt.Errorf("%s has no element like %v (blueprint's [%d]): %v", at, v, i, g)
			}
		}
	default:
		if sameQuantity(want, got) {
			return nil
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Errorf("%s = %v, want %v", at, got, want)
		}
	}
	return nil
}

// sameQuantity reports whether want and got are both quantities written as strings, of one value.
func sameQuantity(want, got any) bool {
	w, ok := want.(string)
	g, ok2 := got.(string)
	if !ok || !ok2 {
		return false
	}
	wq, err := apiresource.ParseQuantity(w)
	if err != nil {
		return false
	}
	gq, err := apiresource.ParseQuantity(g)
	return err == nil && wq.Cmp(gq) == 0
}
