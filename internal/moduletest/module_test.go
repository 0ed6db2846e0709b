package moduletest

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	mlacctest "github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The plan-only runs of tests/plan.tftest.hcl (the arithmetic from whole GPUs to quotas and
// costs, and every refusal) and tests/multikueue.tftest.hcl (a manager from its workers) need no
// cluster: the provider points at a stand-in API server that
// counts requests, and none may reach it.
func TestModule_plan(t *testing.T) {
	c := requireCLI(t)
	t.Parallel() // plans only, in a workspace of its own, against a stand-in of its own
	module := filepath.Join(workspace(t), "modules/ml-platform")
	c.must(t, module, nil, "init", "-no-color", "-input=false")
	host, requests := mlacctest.UnreachableCluster(t)
	c.test(t, module, "tests/plan.tftest.hcl", []string{"KUBE_HOST=" + host})
	// OpenTofu hands a run's outputs to later runs only after an apply, and these runs only plan:
	// there, TestModule_multiKueue applies a manager built from its workers.
	if c.name == "Terraform" {
		c.test(t, module, "tests/multikueue.tftest.hcl", []string{"KUBE_HOST=" + host})
	}
	if n := requests(); n != 0 {
		t.Errorf("the plan-only runs made %d API requests; want none", n)
	}
}

// The apply runs of tests/apply.tftest.hcl create the platform, see Kueue turn every queue
// Active and grow a pool in place, then destroy it; their names carry a per-run suffix.
func TestModule_apply(t *testing.T) {
	c := requireCLI(t)
	kubeconfig := requireCluster(t)
	module := filepath.Join(workspace(t), "modules/ml-platform")
	c.must(t, module, nil, "init", "-no-color", "-input=false")
	// Digits only: run_id is declared by no module, so Terraform reads its value as an expression
	// and OpenTofu as a string, and a number is the same to both.
	runID := strconv.Itoa(10000 + rand.IntN(90000))
	c.test(t, module, "tests/apply.tftest.hcl", []string{"KUBE_CONFIG_PATHS=" + kubeconfig}, "-var=run_id="+runID)
}

// examples/complete, the seed platform as a call of the module: applied, every queue Active, a
// second plan empty (a second apply would be a no-op), and one-line changes whose plans touch only
// what they must: resizing a pool changes that pool only (the billing rules hold what one GPU
// exposes, not how many there are);
// renaming a team replaces its queue and team, nothing else.
func TestModule_examplesComplete(t *testing.T) {
	c := requireCLI(t)
	dir, env := applyExampleComplete(t, c, nil)

	var queues map[string]struct {
		Active      bool     `json:"active"`
		LocalQueues []string `json:"local_queues"`
	}
	if err := json.Unmarshal([]byte(c.must(t, dir, env, "output", "-json", "queues")), &queues); err != nil {
		t.Fatal(err)
	}
	for _, team := range []string{"research", "vision", "nlp"} {
		if q, ok := queues[team]; !ok || !q.Active || !slices.Equal(q.LocalQueues, []string{team + "/training"}) {
			t.Errorf("queue of %s: %+v (present %v); want Active with LocalQueue %s/training", team, q, ok, team)
		}
	}

	if changes := planChanges(t, c, dir, env); len(changes) != 0 {
		t.Errorf("a second apply would change %v; want a no-op", changes)
	}
	checkKueueConfiguration(t, c.must(t, dir, env, "output", "-raw", "kueue_configuration"))

	edit(t, dir, "on_demand = { max_gpus = 16 }", "on_demand = { max_gpus = 24 }")
	want := []string{`module.platform.mlplatform_gpu_node_pool.this["h100"]: update`}
	if changes := planChanges(t, c, dir, env); !slices.Equal(changes, want) {
		t.Errorf("resizing the h100 pool plans %v; want only %v", changes, want)
	}
	edit(t, dir, "on_demand = { max_gpus = 24 }", "on_demand = { max_gpus = 16 }")

	edit(t, dir, `vision = "cc-4102"`, `perception = "cc-4102"`)
	want = []string{
		`module.platform.mlplatform_cluster_queue.team["perception"]: create`,
		`module.platform.mlplatform_cluster_queue.team["vision"]: delete`,
		`module.platform.mlplatform_team.this["perception"]: create`,
		`module.platform.mlplatform_team.this["vision"]: delete`,
	}
	if changes := planChanges(t, c, dir, env); !slices.Equal(changes, want) {
		t.Errorf("renaming the vision team plans %v; want only %v", changes, want)
	}
	edit(t, dir, `perception = "cc-4102"`, `vision = "cc-4102"`)
}

// applyExampleComplete copies examples/complete into a workspace, lets prepare edit it (nil: as it
// is), and applies it to the package's own control plane, destroying it when the test ends. It
// returns the workspace's directory and the CLI's environment.
func applyExampleComplete(t *testing.T, c *cli, prepare func(dir string)) (dir string, env []string) {
	t.Helper()
	kubeconfig := requireOwnCluster(t)
	env = []string{"KUBE_CONFIG_PATHS=" + kubeconfig}
	// The dashboard goes to the monitoring stack's namespace, which the local control plane lacks.
	createNamespace(t, kubeconfig, "monitoring")
	dir = filepath.Join(workspace(t), "examples/complete")
	if prepare != nil {
		prepare(dir)
	}
	c.must(t, dir, env, "init", "-no-color", "-input=false")
	t.Cleanup(func() {
		if out, err := c.run(t, dir, env, "destroy", "-no-color", "-input=false", "-auto-approve"); err != nil {
			t.Errorf("destroy failed: %v\n%s", err, out)
		}
	})
	c.must(t, dir, env, "apply", "-no-color", "-input=false", "-auto-approve")
	return dir, env
}

// createNamespace creates namespace name unless it exists.
func createNamespace(t *testing.T, kubeconfig, name string) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	_, err = kubernetes.NewForConfigOrDie(cfg).CoreV1().Namespaces().Create(t.Context(), ns, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// planChanges plans dir and returns "<address>: <action>" for every resource the plan would
// change, sorted.
func planChanges(t *testing.T, c *cli, dir string, env []string) []string {
	t.Helper()
	out, err := c.run(t, dir, env, "plan", "-no-color", "-input=false", "-detailed-exitcode", "-out=check.tfplan")
	var exit *exec.ExitError
	changed := errors.As(err, &exit) && exit.ExitCode() == 2 // -detailed-exitcode: 2 is a plan with changes
	if err != nil && !changed {
		t.Fatalf("plan failed: %v\n%s", err, out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(c.must(t, dir, env, "show", "-json", "check.tfplan")), &plan); err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, rc := range plan.ResourceChanges {
		if a := strings.Join(rc.Change.Actions, ","); a != "no-op" && a != "read" {
			changes = append(changes, rc.Address+": "+strings.ReplaceAll(a, ",", "+"))
		}
	}
	slices.Sort(changes)
	if (err == nil) != (len(changes) == 0) {
		t.Fatalf("plan's exit code (%v) disagrees with its changes %v\n%s", err, changes, out)
	}
	return changes
}

// edit replaces old, which must occur exactly once, in dir's main.tf.
func edit(t *testing.T, dir, old, replacement string) {
	t.Helper()
	path := filepath.Join(dir, "main.tf")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), old); n != 1 {
		t.Fatalf("%s holds %q %d times; the test edits it where it occurs once", path, old, n)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), old, replacement, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
