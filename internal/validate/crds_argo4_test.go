package validate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// TestArgo4CRDCopiesArePinnedVersion fails when crds/argo4 differs from the CRDs of the Argo
// Workflows v4 that tools/argo4 pins: run `go generate ./internal/validate`.
func TestArgo4CRDCopiesArePinnedVersion(t *testing.T) {
	upstream, err := testcluster.Argo4CRDFiles(Argo4CRDFiles())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range upstream {
		if b, err := argo4Files.ReadFile("crds/argo4/" + name); err != nil {
			t.Errorf("crds/argo4/%s: %v", name, err)
		} else if !bytes.Equal(b, want) {
			t.Errorf("crds/argo4/%s differs from the pinned version's: run `go generate ./internal/validate`", name)
		}
	}
}

// v3's schemaless install and its validator take any schedule robfig/cron parses; v4's CRD
// takes only digits and `*,/?-` in the five fields, and whole numbers in @every.
func TestObject_argo4CronSchedules(t *testing.T) {
	for schedule, refused := range map[string]bool{
		"0 2 * * *":      false,
		"*/15 0-6 * * 1": false,
		"@daily":         false,
		"@every 1h30m":   false,
		"0 2 * * MON":    true,
		"0 2 1 JAN *":    true,
		"@every 1.5h":    true,
		" 0 2 * * *":     true,
	} {
		errs := mustValidate(t, cronWorkflow("nightly", schedule))
		got := len(errs) == 1 && errs[0].Field == "spec.schedules[0]" && strings.Contains(Text(errs[0]), "Argo Workflows v4's CRD: ")
		if refused != got {
			t.Errorf("%q: errors %v; want refused by v4's CRD: %v", schedule, texts(errs), refused)
		}
	}
}
