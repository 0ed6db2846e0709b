package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfconfig "github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// readsTheCluster are examples whose plan reads live objects, which their acceptance tests cover.
var readsTheCluster = map[string]string{
	"data-sources/mlplatform_cluster_queue": "reads a live ClusterQueue (TestAccClusterQueueDataSource_*)",
	"data-sources/mlplatform_preflight":     "reads the controllers' live settings (TestAccPreflight_*)",
}

// The examples of docs/ together declare one platform (an example refers to what the others
// declare, as in a user's configuration), and it plans as written without a cluster: a renamed
// attribute or a value the plan-time checks refuse shows up here rather than in a user's first apply.
func TestExamples_plan(t *testing.T) {
	dirs, err := filepath.Glob("../../examples/*/mlplatform_*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	var config strings.Builder
	for _, dir := range dirs {
		if _, ok := readsTheCluster[strings.TrimPrefix(dir, "../../examples/")]; ok {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&config, "# %s\n%s\n", f, b)
		}
	}
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             fmt.Sprintf("provider \"mlplatform\" {\n  host = %q\n}\n", host) + config.String(),
			ConfigVariables:    exampleInputs,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}}
	})
}

// Every type the provider serves has its example, which docs/ shows and TestExamples_plan plans (a
// resource's also its import command), and its page in docs/ (make generate writes it); every
// example and every page is of a type the provider serves.
func TestExamples_everyType(t *testing.T) {
	resources, dataSources := acctest.ProviderTypes(t)
	for kind, types := range map[string][]string{"resources": resources, "data-sources": dataSources} {
		pages, err := filepath.Glob(filepath.Join("../../docs", kind, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		var documented []string
		for _, page := range pages {
			documented = append(documented, "mlplatform_"+strings.TrimSuffix(filepath.Base(page), ".md"))
		}
		acctest.CheckEveryType(t, "docs/"+kind, types, documented)
		dirs, err := filepath.Glob(filepath.Join("../../examples", kind, "*"))
		if err != nil {
			t.Fatal(err)
		}
		var covered []string
		for _, dir := range dirs {
			covered = append(covered, filepath.Base(dir))
		}
		acctest.CheckEveryType(t, "examples/"+kind, types, covered)
		files := map[string][]string{"resources": {"resource.tf", "import.sh"}, "data-sources": {"data-source.tf"}}[kind]
		for _, typ := range types {
			for _, f := range files {
				if _, err := os.Stat(filepath.Join("../../examples", kind, typ, f)); err != nil {
					t.Errorf("%s has no example %s: %v", typ, f, err)
				}
			}
		}
	}
	for dir := range readsTheCluster {
		if _, err := os.Stat(filepath.Join("../../examples", dir)); err != nil {
			t.Errorf("readsTheCluster names %s, which is no example: %v", dir, err)
		}
	}
}

// exampleInputs are the values of the examples' variables that have no default, as a user gives
// them.
var exampleInputs = tfconfig.Variables{"worker_a_kubeconfig": tfconfig.StringVariable(testKubeconfig)}
