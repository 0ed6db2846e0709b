package validate_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate/parity"
)

// TestAccParity_BuiltinKinds proves that the engine judges the built-in kinds the provider writes
// as the apiserver does: for each kind, a corpus (valid objects; bad names, labels, annotations
// and finalizers; each kind's own rules) is judged by validate.Object and by a server-side
// dry-run create. For the rules the engine covers, verdicts and error fields must agree. Cases of
// rules it does not cover (builtin_policy.go says which) are its known gaps: they are run and
// printed with both verdicts, not failed.
func TestAccParity_BuiltinKinds(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("needs the apiserver: set TF_ACC=1")
	}
	start := time.Now()
	ctx := context.Background()
	cfg := acctest.RestConfig(t)
	cfg.QPS, cfg.Burst = 200, 200
	dyn := dynamic.NewForConfigOrDie(cfg)
	namespace := parityNamespace(t, kubernetes.NewForConfigOrDie(cfg), "parity-builtin")
	prefix := acctest.Name("parity")
	var objects, agreed, gaps int
	for _, k := range builtinCorpus(namespace, prefix) {
		t.Run(k.kind, func(t *testing.T) {
			var disagree, otherFields, gapLines []string
			refused := 0
			for _, c := range k.cases {
				obj := k.base()
				c.change(obj)
				engine := builtinEngineVerdict(t, ctx, obj)
				api, _, err := parity.APIServerVerdict(ctx, dyn, k.gvr, obj)
				if err != nil {
					t.Fatal(err)
				}
				line := fmt.Sprintf("%s:\n    engine: %s\n    apiserver: %s", c.name, engine, api)
				if c.gap != "" {
					gapLines = append(gapLines, fmt.Sprintf("%s (%s; verdicts %s)", line, c.gap, map[bool]string{true: "agree", false: "differ"}[engine.Refused == api.Refused]))
					continue
				}
				if api.Refused {
					refused++
				}
				switch {
				case engine.Refused != api.Refused:
					disagree = append(disagree, line)
				case !slices.Equal(engine.Fields, api.Fields):
					otherFields = append(otherFields, fmt.Sprintf("%s: engine %q, apiserver %q", c.name, engine.Fields, api.Fields))
				}
				objects++
			}
			covered := len(k.cases) - len(gapLines)
			agreed += covered - len(disagree)
			gaps += len(gapLines)
			t.Logf("%s: verdicts agree on %d/%d objects (%d refused by the apiserver), error fields on %d/%d; %d known gaps",
				k.kind, covered-len(disagree), covered, refused, covered-len(disagree)-len(otherFields), covered-len(disagree), len(gapLines))
			for _, g := range gapLines {
				t.Logf("  known gap: %s", g)
			}
			if len(disagree) > 0 {
				t.Errorf("%d verdicts differ:\n  %s", len(disagree), strings.Join(disagree, "\n  "))
			}
			if len(otherFields) > 0 {
				t.Errorf("%d error fields differ:\n  %s", len(otherFields), strings.Join(otherFields, "\n  "))
			}
		})
	}
	t.Logf("all built-in kinds: verdicts agree on %d/%d objects, %d known gaps, in %s", agreed, objects, gaps, time.Since(start).Round(time.Second))
}

// The corpus of TestAccParity_BuiltinKinds has each built-in kind the engine judges (the ones the
// provider writes), and no other; it needs no cluster.
func TestBuiltinCorpus_everyBuiltinKind(t *testing.T) {
	var covered []schema.GroupKind
	for _, k := range builtinCorpus("ns", "p") {
		obj := k.base()
		gk := schema.FromAPIVersionAndKind(obj["apiVersion"].(string), obj["kind"].(string)).GroupKind()
		if gk.Kind != k.kind {
			t.Errorf("the corpus of %s has a base of kind %s", k.kind, gk)
		}
		covered = append(covered, gk)
	}
	engine := validate.BuiltinKinds()
	for _, gk := range engine {
		if !slices.Contains(covered, gk) {
			t.Errorf("the built-in corpus does not cover %s, which the engine judges", gk)
		}
	}
	for _, gk := range covered {
		if !slices.Contains(engine, gk) {
			t.Errorf("the built-in corpus covers %s, which the engine does not judge", gk)
		}
	}
}

func builtinEngineVerdict(t *testing.T, ctx context.Context, obj map[string]any) parity.Verdict {
	t.Helper()
	gk := schema.FromAPIVersionAndKind(obj["apiVersion"].(string), obj["kind"].(string)).GroupKind()
	if !validate.Known(gk) {
		t.Fatalf("the engine does not know %s", gk)
	}
	return parity.EngineVerdict(validate.Object(ctx, runtime.DeepCopyJSON(obj)))
}
