package validate

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"gomodules.xyz/jsonpatch/v2"
)

// Kueue's mutating webhook patches the object with its typed encoding before the CRD's checks, as
// the apiserver calls it: a required quantity the object lacks comes back as 0, which the CRD
// then accepts (found by TestAccParity_Webhooks).
func TestObject_mutatingWebhookFillsZeroValues(t *testing.T) {
	obj := clusterQueue(func(spec map[string]any) { delete(quota(spec), "nominalQuota") })
	errs, _, _, err := checkCRD(context.Background(), obj, false)
	if err != nil || len(errs) == 0 {
		t.Fatalf("without the webhook the CRD should refuse it: %v %v", err, texts(errs))
	}
	stored, errs, err := Admitted(context.Background(), obj)
	if err != nil || len(errs) > 0 {
		t.Fatalf("refused: %v %v", err, texts(errs))
	}
	if got := quota(stored["spec"].(map[string]any))["nominalQuota"]; got != "0" {
		t.Errorf("nominalQuota %v, want the webhook's \"0\"", got)
	}
}

// What the mutating webhook's patch leaves: its finalizer, and quantities as Kueue's types
// encode them.
func TestAdmitted_mutatingWebhookPatch(t *testing.T) {
	obj := clusterQueue(func(spec map[string]any) { quota(spec)["nominalQuota"] = "8000m" })
	stored, errs, err := Admitted(context.Background(), obj)
	if err != nil || len(errs) > 0 {
		t.Fatalf("refused: %v %v", err, texts(errs))
	}
	if got := stored["metadata"].(map[string]any)["finalizers"]; !reflect.DeepEqual(got, []any{"kueue.x-k8s.io/resource-in-use"}) {
		t.Errorf("finalizers %v", got)
	}
	if got := quota(stored["spec"].(map[string]any))["nominalQuota"]; got != "8" {
		t.Errorf("nominalQuota %v, want \"8\"", got)
	}
}

// A value Kueue's types cannot hold is refused by the mutating webhook's decoder, in its words,
// before the CRD's pattern is checked.
func TestObject_mutatingWebhookRefuses(t *testing.T) {
	errs := mustValidate(t, clusterQueue(func(spec map[string]any) { quota(spec)["nominalQuota"] = "eight" }))
	if len(errs) != 1 || !strings.Contains(Text(errs[0]), "quantities must match the regular expression") {
		t.Errorf("errors %v; want the decoder's one", texts(errs))
	}
}

// A webhook's patch is applied as the apiserver applies it (escaped keys, appends, replace,
// remove, new objects), its result decoded as the apiserver decodes JSON, and an operation on
// what does not exist fails.
func TestApplyPatch(t *testing.T) {
	doc := map[string]any{"a/b": map[string]any{"list": []any{"x", "z"}}, "gone": true}
	err := applyPatch(doc, []jsonpatch.JsonPatchOperation{
		{Operation: "add", Path: "/a~1b/list/1", Value: "y"},
		{Operation: "add", Path: "/a~1b/list/-", Value: float64(3)},
		{Operation: "replace", Path: "/a~1b/list/0", Value: "w"},
		{Operation: "remove", Path: "/gone"},
		{Operation: "add", Path: "/new", Value: map[string]any{"n": float64(1.5)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a/b": map[string]any{"list": []any{"w", "y", "z", int64(3)}}, "new": map[string]any{"n": 1.5}}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("got %v, want %v", doc, want)
	}
	if err := applyPatch(doc, []jsonpatch.JsonPatchOperation{{Operation: "replace", Path: "/a~1b/list/9", Value: "x"}}); err == nil {
		t.Error("replace past the end: want an error")
	}
	if err := applyPatch(doc, []jsonpatch.JsonPatchOperation{{Operation: "remove", Path: "/missing"}}); err == nil {
		t.Error("remove of a missing field: want an error")
	}
}
