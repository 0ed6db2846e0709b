package argo_test

import (
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Mistakes are plan errors naming the attribute, with no API call; a valid template plans with
// no cluster at all.
func TestAccTrainingJobTemplate_refusedAtPlan(t *testing.T) {
	ns := acctest.Name("acc-tjt-plan")
	cases := map[string]struct{ body, want string }{
		"unknown GPU": {`hardware = { gpu_type = "a200", cpu_cores = 8, memory_gb = 64 }`,
			`Attribute hardware.gpu_type: unknown GPU model "a200"`},
		"unknown MIG profile": {`hardware = { gpu_type = "a100-2g.7gb", cpu_cores = 8, memory_gb = 64 }`,
			`Attribute hardware.gpu_type: A100-SXM4-80GB has no MIG profile "2g.7gb"`},
		"too many GPUs": {`hardware = { gpu_type = "a100-80gb", gpu_count = 9, cpu_cores = 8, memory_gb = 64 }`,
			`Attribute hardware.gpu_count: a pod on A100-SXM4-80GB can have 1 to 8 GPUs`},
		"pod larger than any node": {`hardware = { gpu_type = "a100-80gb", cpu_cores = 200, memory_gb = 64 }`,
			`Attribute hardware.cpu_cores: 200 CPU cores do not fit on any node of A100-SXM4-80GB: the most any offers pods is 95.7 (p4de.24xlarge)`},
		"expression in args": {`args = ["--key={{=sprig.env('AWS_SECRET_ACCESS_KEY')}}"]`,
			`Attribute args[0]: "--key={{=sprig.env('AWS_SECRET_ACCESS_KEY')}}" holds a`},
		"undeclared parameter": {`args = ["--epochs={{workflow.parameters.epochs}}"]`,
			`refers to parameter "epochs", which the template does not declare`},
		"workflow variable in env": {`env = { SA = "{{workflow.serviceAccountName}}" }`,
			`Attribute env["SA"]: "{{workflow.serviceAccountName}}" holds a`},
		"template in a parameter default": {`hyperparameters = { lr = "{{workflow.name}}" }`,
			`Attribute hyperparameters["lr"]: a parameter's default may not hold`},
		"script and command": {`command = ["torchrun", "train.py"]`, `Exactly one of these attributes must be configured: [training_script,command]`},
		"shm above memory": {`hardware = { cpu_cores = 2, memory_gb = 8, shm_size_gb = 16 }`,
			`Attribute hardware.shm_size_gb: 16 GiB of /dev/shm cannot fit in the pod's memory_gb of 8 GiB`},
		"bad capacity": {`capacity = "preemptible"`, `Attribute capacity value must be one of`},
		"expression in git revision": {`source = { git_repo = "https://g/x.git", revision = "{{workflow.uid}}" }`,
			`Attribute source.revision: "{{workflow.uid}}" holds a`},
		"relative dataset path": {`volumes = [{ claim_name = "imdb", mount_path = "data" }]`,
			`must be an absolute path`},
		"MLflow variable in env": {`env = { MLFLOW_RUN_NAME = "x" }`, `value must be none of`},
		"checkpoint env in env": {"env = { CHECKPOINT_DIR = \"/tmp\" }\ncheckpoint = { uri = \"s3://c\" }",
			`"CHECKPOINT_DIR" carries the checkpoint path`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return minimalConfig(host, ns, tc.body) }, Want: acctest.Words(tc.want)}
	}
	acctest.PlanCases(t, all)
	t.Run("valid", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string {
			return minimalConfig(host, ns, `args = ["--lr={{workflow.parameters.lr}}"]
hyperparameters = { lr = "3e-4" }`)
		}, nil)
	})
}

// minimalConfig is a CPU-and-one-GPU template; body's attributes take precedence over the
// defaults it would otherwise set (hardware, training_script).
func minimalConfig(host, ns, body string) string {
	hw := `hardware = { gpu_type = "a100-1g.10gb", cpu_cores = 2, memory_gb = 16 }`
	script := `training_script = "train.py"`
	if strings.Contains(body, "hardware") {
		hw = ""
	}
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + `
resource "mlplatform_training_job_template" "test" {
  namespace = "` + ns + `"
  name      = "plan"
  image     = "ghcr.io/acme/trainer:1"
  ` + script + `
  ` + hw + `
  ` + body + `
}
`
}

// What passes the provider's own checks but Argo's WorkflowTemplate validator or the CRD refuses is
// a plan error on the attribute, quoting upstream, with no API call.
func TestAccTrainingJobTemplate_refusedByArgoAtPlan(t *testing.T) {
	ns := acctest.Name("acc-tjt-lint")
	long := strings.Repeat("a", 64)
	t.Run("name longer than 63", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string {
			return strings.Replace(minimalConfig(host, ns, ""), `name      = "plan"`, `name      = "`+long+`"`, 1)
		}, acctest.Words(`Attribute name: Argo Workflows would refuse the generated WorkflowTemplate: workflow template name "`+
			long+`" must not be more than 63 characters long (currently 64)`))
	})
	// The CRD lists mounts as a map keyed by mountPath: the apiserver refuses the object before
	// Argo's validator could.
	t.Run("same mount path twice", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string {
			return minimalConfig(host, ns, `volumes = [{ claim_name = "imdb", mount_path = "/data" }, { claim_name = "imdb-v2", mount_path = "/data" }]`)
		}, acctest.Words(`Attribute volumes[1].mount_path: the apiserver would refuse the generated WorkflowTemplate: `+
			`spec.templates[0].container.volumeMounts[1]: Duplicate value: {"mountPath":"/data"}`))
	})
}

// A template that runs on spot nodes only and has no checkpoint is a warning at plan, on capacity,
// naming the fix, with no API call: each spot reclaim would restart a run from zero. With a
// checkpoint, or on other capacity, nothing is said. (A queue whose flavors are all spot warns the
// same: internal/provider's queue path tests.)
func TestAccTrainingJobTemplate_spotWithoutCheckpointWarnsAtPlan(t *testing.T) {
	ns := acctest.Name("acc-tjt-spot")
	warnings := acctest.PlanWarnings(t, func(host string) string { return minimalConfig(host, ns, `capacity = "spot"`) })
	acctest.WarnedOnce(t, warnings, `^mlplatform_training_job_template AttributeName\("capacity"\): Spot capacity without a checkpoint: `+
		`Attribute capacity: "spot" runs the trainer on spot nodes only, and the template has no checkpoint: each spot reclaim `+
		`restarts a run from zero\. Set checkpoint = \{ uri = "s3://<bucket>/<prefix>" \} .* or capacity = "on-demand"\.$`)
	for name, body := range map[string]string{
		"checkpointed": "capacity = \"spot\"\ncheckpoint = { uri = \"s3://acme/ckpt\" }",
		"on-demand":    `capacity = "on-demand"`,
		"any":          ``,
	} {
		t.Run(name, func(t *testing.T) {
			acctest.NotWarned(t, acctest.PlanWarnings(t, func(host string) string { return minimalConfig(host, ns, body) }), `Spot capacity`)
		})
	}
}
