package validate_test

import (
	"context"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate/parity"
)

// TestCorpus_everyKindHasAValidBase needs no cluster: each kind the engine knows has a base
// object, which the engine accepts, and a corpus; each base is of a kind the engine knows, and
// the only one of its kind (TestAccParity_CRDStep walks the bases, so a base of a kind the engine
// lost, or a second one, would judge nothing the engine does).
func TestCorpus_everyKindHasAValidBase(t *testing.T) {
	engine := validate.EngineKinds()
	bases := map[schema.GroupKind]map[string]any{}
	for _, b := range parity.BaseObjects() {
		gk := parity.GVKOf(b).GroupKind()
		if !slices.Contains(engine, gk) {
			t.Errorf("%s: a base object in parity/base.go of a kind the engine does not know", gk)
		}
		if bases[gk] != nil {
			t.Errorf("%s: two base objects in parity/base.go", gk)
		}
		bases[gk] = b
	}
	for _, gk := range engine {
		base, ok := bases[gk]
		if !ok {
			t.Errorf("%s: no base object in parity/base.go", gk)
			continue
		}
		crd, err := validate.EngineCRD(gk)
		if err != nil {
			t.Fatal(err)
		}
		c, unbroken, err := parity.ForKind(context.Background(), crd, base, "parity", crdStep)
		if err != nil {
			t.Fatal(err)
		}
		if errs, err := validate.CRDStep(context.Background(), c.Base); err != nil || len(errs) > 0 {
			t.Errorf("%s: the base object is refused: %v %v", gk, err, errs)
		}
		t.Logf("%s: %d objects, %d schema nodes walked, %d not (deeper than %d), %d CEL rules, %d not broken",
			gk.Kind, len(c.Cases)+1, c.Walked, c.Skipped, parity.MaxDepth(gk), len(c.Rules), len(unbroken))
		parity.CheckRulesBroken(t, gk.Kind, unbroken)
	}
}
