package validate

import (
	"bytes"
	"io/fs"
	"slices"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// TestCRDCopiesArePinnedVersions fails when crds/ differs from the CRDs of the versions go.mod
// pins (after an upgrade, or a kind added to copiedKinds): run `go generate ./internal/validate`.
func TestCRDCopiesArePinnedVersions(t *testing.T) {
	upstream, err := testcluster.UpstreamCRDFiles(CopiedCRDFiles())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(crdFiles, "crds")
	if err != nil {
		t.Fatal(err)
	}
	var held []string
	for _, e := range entries {
		held = append(held, e.Name())
		b, _ := crdFiles.ReadFile("crds/" + e.Name())
		if want, ok := upstream[e.Name()]; !ok {
			t.Errorf("crds/%s is not a CRD the provider writes", e.Name())
		} else if !bytes.Equal(b, want) {
			t.Errorf("crds/%s differs from the pinned version's", e.Name())
		}
	}
	for name := range upstream {
		if !slices.Contains(held, name) {
			t.Errorf("crds/%s is missing", name)
		}
	}
	if t.Failed() {
		t.Log("run `go generate ./internal/validate` and commit crds/")
	}
}

// TestEveryKnownKindCompiles compiles every kind the engine holds, at every version its CRD serves.
func TestEveryKnownKindCompiles(t *testing.T) {
	for gk, src := range sources() {
		crd, err := src()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			if _, err := validatorFor(gk.WithVersion(v.Name)); err != nil {
				t.Errorf("%s %s: %v", gk, v.Name, err)
			}
		}
	}
}
