package argo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/argo"
)

// Before the WorkflowTemplate is written, Kueue must be able to admit one of its pods through the
// queue it names: a missing queue, a pod bigger than any flavor's quota, a capacity type no
// flavor selects and a GPU model no flavor selects (whatever the capacity type) are refused with
// the figures, on the attribute to change, and nothing is written (the apiserver's record of the
// provider's writes is empty after each); a template that fits is.
func TestAccTrainingJobTemplate_checkedAgainstItsQueue(t *testing.T) {
	rec := acctest.RecordWrites(t)
	ns, name := acctest.Name("acc-tjt-queue"), "sentiment"
	// 8 cores, 128 GB and one A100 per pod, against a queue with 4 cores and on-demand nodes only.
	small := map[string]string{"nvidia.com/gpu": "8", "cpu": "4", "memory": "512Gi"}
	cq := ns + "-small"
	template := func(queue, capacity string) string {
		return acctest.ProviderBlock("", acctest.CostCentreDefault, rec.ProviderSetting()) + fmt.Sprintf(`
resource "mlplatform_training_job_template" "test" {
  namespace       = %q
  name            = %q
  queue           = %q
  image           = "ghcr.io/acme/sentiment:1.4"
  training_script = "train.py"
  hardware        = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 128 }
  capacity        = %q
}
`, ns, name, queue, capacity)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			teamNamespace(t, ns)
			ensureQueue(t, ns, "small", small, "on-demand")
			ensureQueueOf(t, ns, "a100-40", small, map[string]string{"mlplatform.io/gpu": "a100-sxm4-40gb"}, "on-demand")
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_training_job_template", argo.WorkflowTemplateKind),
		Steps: []resource.TestStep{
			{
				Config:      template("no-such-queue", "any"),
				ExpectError: acctest.Words(`Attribute queue: localqueues.kueue.x-k8s.io "no-such-queue" not found`),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for a missing queue") },
				Config:    template("small", "on-demand"),
				ExpectError: acctest.Words("Attribute hardware.cpu_cores: through LocalQueue " + ns + "/small, ClusterQueue " + cq +
					" cannot admit one pod: one pod requests 8 cpu, but flavor " + cq + "-on-demand gives at most 4 (nominal quota 4, no cohort to borrow from)."),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for a pod bigger than the quota") },
				Config:    template("small", "spot"),
				ExpectError: acctest.Words("Attribute capacity: through LocalQueue " + ns + "/small, ClusterQueue " + cq +
					" cannot admit one pod: flavor " + cq + "-on-demand selects nodes labelled {karpenter.sh/capacity-type=on-demand}, which the pod's node selector"),
			},
			{
				// The GPU model excludes the flavor whatever the capacity type: blamed on gpu_type.
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for a capacity type no flavor selects") },
				Config:    template("a100-40", "spot"),
				ExpectError: acctest.Words("Attribute hardware.gpu_type: through LocalQueue " + ns + "/a100-40, ClusterQueue " + ns +
					"-a100-40 cannot admit one pod: flavor " + ns + "-a100-40-on-demand selects nodes labelled"),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the apply refused for a GPU model no flavor selects")
					_, err := acctest.Dynamic(t).Resource(argo.WorkflowTemplateKind.GVR).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
					if !apierrors.IsNotFound(err) {
						t.Fatalf("a refused apply wrote WorkflowTemplate %s/%s (get: %v)", ns, name, err)
					}
				},
				Config: template("training", "spot"),
				Check: func(*terraform.State) error {
					acctest.Get(t, argo.WorkflowTemplateKind, ns, name)
					// The record is live: it holds this apply's write of the template.
					if ws := rec.Take(t); !ws.Has(argo.WorkflowTemplateKind, ns, name) {
						return fmt.Errorf("the apiserver's record of the apply has no write of WorkflowTemplate %s/%s:\n%s", ns, name, ws)
					}
					return nil
				},
			},
		},
	})
}
