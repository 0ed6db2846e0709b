package webhookparity_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate/parity"
)

const kueueGroup = "kueue.x-k8s.io"

// validatingWebhooks name Kueue's validating webhook of each kind that has one (Kueue's
// config/components/webhook/manifests.yaml); ClusterQueue and ResourceFlavor also have a mutating
// one (mclusterqueue.kb.io, mresourceflavor.kb.io).
var validatingWebhooks = map[string]string{
	"ClusterQueue":   "vclusterqueue.kb.io",
	"Cohort":         "vcohort.kb.io",
	"ResourceFlavor": "vresourceflavor.kb.io",
}

// TestAccParity_Webhooks proves that the whole engine (validate.Admitted: upstream's mutating
// webhook, the CRD step, then its validating webhook) judges Kueue's kinds as the apiserver does with Kueue's manager and
// webhooks installed. Each kind's corpus is the CRD corpus TestAccParity_CRDStep judges plus, for
// the kinds with a webhook, objects that break each rule the webhooks hold and the CRD does not
// (rules_test.go), with controls just within the rules. Each object is judged by the engine and by
// a server-side dry-run create; the verdicts must agree, and a webhook's refusal must be worded as
// the engine words it. An object both accept must come back from the dry run as validate.Admitted
// returns it, but for the metadata the apiserver sets.
func TestAccParity_Webhooks(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("needs the apiserver with Kueue's webhooks: set TF_ACC=1")
	}
	start := time.Now()
	ctx := context.Background()
	cfg := acctest.RestConfig(t)
	cs := kubernetes.NewForConfigOrDie(cfg)
	requireKueueWebhooks(t, ctx, cs)
	crds := apiextensionsclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	// Client-side rate limiting (5 requests a second by default) would be most of the run time.
	cfg.QPS, cfg.Burst = 200, 200
	dyn := dynamic.NewForConfigOrDie(cfg)
	namespace := parityNamespace(t, ctx, cs)
	var objects, agreed int
	for _, base := range parity.BaseObjects() {
		gvk := parity.GVKOf(base)
		if gvk.Group != kueueGroup {
			continue
		}
		t.Run(gvk.Kind, func(t *testing.T) {
			crd, err := parity.ServedCRD(ctx, crds, gvk.GroupKind())
			if err != nil {
				t.Fatal(err)
			}
			c, unbroken, err := parity.ForKind(ctx, crd, base, namespace, engine)
			if err != nil {
				t.Fatal(err)
			}
			parity.CheckRulesBroken(t, gvk.Kind, unbroken)
			whCases := webhookCases(gvk.Kind, c.Base, limitsOf(t, crd, gvk.Version))
			cases := append([]parity.Case{{Change: "base object", Obj: c.Base}}, c.Cases...)
			for _, wc := range whCases {
				cases = append(cases, wc.Case)
			}
			gvr := gvk.GroupVersion().WithResource(crd.Spec.Names.Plural)
			j := judgeAll(t, ctx, dyn, gvr, cases)
			objects += len(cases)
			agreed += len(cases) - len(j.disagree)
			exercised := checkWebhookCases(t, gvk.Kind, whCases, j.api[len(cases)-len(whCases):])
			t.Logf("%s: %d objects (%d from the CRD corpus, %d for the webhook's rules); verdicts agree on %d/%d; "+
				"refused by a webhook %d, by the CRD step %d; accepted %d (each stored as the engine admitted it, or an error above)",
				gvk.Kind, len(cases), len(cases)-len(whCases), len(whCases), len(cases)-len(j.disagree), len(cases),
				j.byWebhook, j.refused-j.byWebhook, j.accepted)
			t.Logf("%s: refused by a webhook in the engine's words %d/%d; by the CRD step with the same error fields %d/%d",
				gvk.Kind, j.byWebhook-len(j.otherWords), j.byWebhook, j.refused-j.byWebhook-len(j.otherFields), j.refused-j.byWebhook)
			for _, f := range j.otherFields {
				t.Logf("  fields differ: %s", f)
			}
			for _, rule := range webhookRules[gvk.Kind] {
				t.Logf("  webhook rule %s: %s", rule, exercised[rule])
			}
			if len(j.disagree) > 0 {
				t.Errorf("%d verdicts differ:\n  %s", len(j.disagree), strings.Join(j.disagree, "\n  "))
			}
			if len(j.otherWords) > 0 {
				t.Errorf("%d webhook refusals worded otherwise by the engine:\n  %s", len(j.otherWords), strings.Join(j.otherWords, "\n  "))
			}
		})
	}
	t.Logf("all Kueue kinds: verdicts agree on %d/%d objects, in %s", agreed, objects, time.Since(start).Round(time.Second))
}

// engine is the judge that picks the corpus's rule-breaking objects: the whole engine.
func engine(ctx context.Context, obj map[string]any) (field.ErrorList, error) {
	return validate.Object(ctx, obj)
}

// judged is what judgeAll found over one kind's cases.
type judged struct {
	api                          []parity.Verdict // by case
	disagree, otherWords         []string         // failures
	otherFields                  []string         // said only, as TestAccParity_CRDStep does
	refused, byWebhook, accepted int
}

// judgeAll judges each case on both sides. An object both accept must come back from the dry run
// as the engine admitted it (defaults, the mutating webhook's patch), but for what the apiserver
// sets itself.
func judgeAll(t *testing.T, ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, cases []parity.Case) judged {
	t.Helper()
	var j judged
	for _, cc := range cases {
		stored, errs, err := validate.Admitted(ctx, cc.Obj)
		engineV := parity.EngineVerdict(errs, err)
		api, created, err := parity.APIServerVerdict(ctx, dyn, gvr, cc.Obj)
		if err != nil {
			t.Fatal(err)
		}
		j.api = append(j.api, api)
		switch {
		case engineV.Refused != api.Refused:
			j.disagree = append(j.disagree, fmt.Sprintf("%s:\n    engine: %s\n    apiserver: %s", cc, engineV, api))
		case api.Refused:
			j.refused++
			if api.Webhook != "" {
				j.byWebhook++
				// The same upstream code on both sides: its words must be the same too.
				if engineV.Denial != api.Denial {
					j.otherWords = append(j.otherWords, fmt.Sprintf("%s:\n    engine: %s\n    webhook %s: %s", cc, engineV.Denial, api.Webhook, api.Denial))
				}
			} else if !slices.Equal(engineV.Fields, api.Fields) {
				j.otherFields = append(j.otherFields, fmt.Sprintf("%s: engine %v, apiserver %v", cc, engineV.Fields, api.Fields))
			}
		default:
			j.accepted++
			if want, got := withoutServerFields(created.Object), withoutServerFields(stored); !equality.Semantic.DeepEqual(want, got) {
				t.Errorf("%s: the engine admits another object than the apiserver stores:\n%s", cc, diff.Diff(want, got))
			}
		}
	}
	return j
}

// checkWebhookCases checks that each webhook case is judged as it claims: a break refused by the
// kind's webhook in the expected words (or, when a CEL rule repeats the webhook's, by the CRD step
// with the rule's message), a control accepted. It returns how each rule was exercised, and fails
// for a rule of the kind no case breaks.
func checkWebhookCases(t *testing.T, kind string, cases []webhookCase, api []parity.Verdict) map[string]string {
	t.Helper()
	exercised := map[string]string{}
	note := func(rule, how string) {
		if exercised[rule] == "" {
			exercised[rule] = how
		} else if !strings.Contains(exercised[rule], how) {
			exercised[rule] += "; " + how
		}
	}
	for i, wc := range cases {
		v := api[i]
		switch {
		case !wc.Refused && v.Refused:
			t.Errorf("%s control %s: the apiserver refuses it: %s", kind, wc.Case, v)
		case !wc.Refused:
			continue
		case wc.ShadowedBy != "":
			if v.Webhook != "" || !strings.Contains(v.Why, wc.ShadowedBy) {
				t.Errorf("%s %s: want refused by the CRD's rule %q, apiserver: %s", kind, wc.Case, wc.ShadowedBy, v)
				continue
			}
			note(wc.Rule, "shadowed by the CRD's CEL rule "+fmt.Sprintf("%q", wc.ShadowedBy))
		default:
			if v.Webhook != validatingWebhooks[kind] || !strings.Contains(v.Denial, wc.Detail) {
				t.Errorf("%s %s: want refused by %s saying %q, apiserver: %s", kind, wc.Case, validatingWebhooks[kind], wc.Detail, v)
				continue
			}
			note(wc.Rule, "refused by "+v.Webhook)
		}
	}
	for _, rule := range webhookRules[kind] {
		if exercised[rule] == "" {
			t.Errorf("%s: no case breaks the webhook's rule %s", kind, rule)
			exercised[rule] = "NOT BROKEN"
		}
	}
	return exercised
}

// requireKueueWebhooks fails unless Kueue's webhooks for the kinds here are installed: without them
// the test would compare the admission step with nothing.
func requireKueueWebhooks(t *testing.T, ctx context.Context, cs kubernetes.Interface) {
	t.Helper()
	installed := map[string]bool{}
	vs, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range vs.Items {
		for _, w := range c.Webhooks {
			installed[w.Name] = true
		}
	}
	ms, err := cs.AdmissionregistrationV1().MutatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ms.Items {
		for _, w := range c.Webhooks {
			installed[w.Name] = true
		}
	}
	for _, name := range []string{"vclusterqueue.kb.io", "vcohort.kb.io", "vresourceflavor.kb.io", "mclusterqueue.kb.io", "mresourceflavor.kb.io"} {
		if !installed[name] {
			t.Fatalf("needs Kueue's manager and webhooks (testcluster.WithKueue, or a KUBECONFIG cluster with Kueue v0.19): webhook %s is not installed", name)
		}
	}
}

// limitsOf reads the CRD's bounds on a resource group's lists (ClusterQueue and Cohort), zero for
// other kinds.
func limitsOf(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, version string) schemaLimits {
	t.Helper()
	var root *apiextensionsv1.JSONSchemaProps
	for _, v := range crd.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			root = v.Schema.OpenAPIV3Schema
		}
	}
	groups, ok := root.Properties["spec"].Properties["resourceGroups"]
	if !ok {
		return schemaLimits{}
	}
	maxItems := func(s apiextensionsv1.JSONSchemaProps) int {
		if s.MaxItems == nil {
			t.Fatalf("%s: a resource group list without maxItems", crd.Name)
		}
		return int(*s.MaxItems)
	}
	group := groups.Items.Schema.Properties
	return schemaLimits{groups: maxItems(groups), flavors: maxItems(group["flavors"]), covered: maxItems(group["coveredResources"])}
}

// parityNamespace is a namespace of this run for the namespaced kinds' dry runs, deleted at the end.
func parityNamespace(t *testing.T, ctx context.Context, cs kubernetes.Interface) string {
	t.Helper()
	name := acctest.Name("webhook-parity")
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}
