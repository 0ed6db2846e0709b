package faulttest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Kueue's CRDs are removed between two applies: the plan, and an apply, fail with the install
// hint for every resource, and the state file is left byte for byte as it was. With the CRDs
// back (the objects went with them), the plan creates them again.
func TestFault_kueueCRDsRemovedBetweenApplies(t *testing.T) {
	requireOwnCluster(t)
	prefix := prefixFor("crds")
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 2, ""))
	ws.Must(t, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { _, _, _ = ws.Run(t, "destroy", "-auto-approve", "-input=false") })
	statePath := filepath.Join(ws.Dir, "terraform.tfstate")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	restore := acctest.RemoveCRDs(t, "clusterqueues.kueue.x-k8s.io", "resourceflavors.kueue.x-k8s.io")
	hint := acctest.Words("Kueue v0.15 or newer (kueue.x-k8s.io/v1beta2) is not installed on this cluster: the API server does not serve kueue.x-k8s.io/v1beta2")
	for _, command := range [][]string{{"plan", "-input=false"}, {"apply", "-auto-approve", "-input=false"}} {
		out, _, err := ws.Run(t, command...)
		if err == nil {
			t.Fatalf("%s succeeded without Kueue's CRDs:\n%s", command[0], out)
		}
		// The flavors' reads fail; the queues, which depend on them, are not read.
		errs, hints := strings.Count(out, "Error: "), len(hint.FindAllString(out, -1))
		if errs < 2 || hints != errs {
			t.Errorf("%s: %d errors, %d of them with the install hint:\n%s", command[0], errs, hints, out)
		}
		after, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("%s changed the state file", command[0])
		}
	}

	restore()
	out, _, err := ws.Run(t, "plan", "-detailed-exitcode", "-input=false")
	if code := exitCode(err); code != 2 || !bytes.Contains([]byte(out), []byte("4 to add, 0 to change, 0 to destroy")) {
		t.Fatalf("with the CRDs back (and the objects gone with them), the plan should create all 4 (exit %d):\n%s", code, out)
	}
	ws.Must(t, "apply", "-auto-approve", "-input=false")
}

func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}
