package team_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/team"
)

// A team whose queue has an admitted workload is not destroyed: the destroy is refused when
// Terraform plans it, naming the job and its Workload, which holds quota, and deletes nothing (the
// apiserver's record of the provider's writes is empty; before any apply, the namespace is not
// terminating, the queue is there, the Workload still holds quota and the plan is empty). With
// force_destroy, the destroy deletes the namespace with the job and its Workload, and waits until
// they are gone.
func TestAccTeam_destroyWhileAdmitted(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-team-busy")
	cq := name + "-cq"
	body := fmt.Sprintf("  name = %q\n  local_queues = { training = %q }\n  require_project_label = false\n", name, cq)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			clusterQueue(t, cq, map[string]any{})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := absent(t, team.NamespaceKind, "", name); err != nil {
				return err
			}
			return noWorkloads(t, name)
		},
		Steps: []resource.TestStep{
			{
				Config: teamConfig("", body),
				Check: func(*terraform.State) error {
					submitJob(t, name, "training")
					return waitAdmitted(t, name)
				},
			},
			{
				Config:  teamConfigWith(rec.ProviderSetting(), body, ""),
				Destroy: true,
				ExpectError: regexp.MustCompile(`(?s)Error running pre-apply plan.*Destroying team ` + name + ` would delete.*` +
					`Job\s+` + name + `/train,\s+Workload\s+` + name + `/\S+\s+\(holds\s+quota\s+in\s+ClusterQueue\s+` + cq +
					`\).*Nothing\s+was\s+deleted`),
			},
			{
				// Nothing was deleted: the team is whole, and so is its queue.
				PreConfig: func() {
					rec.ExpectNone(t, "the refused destroy")
					if ts := acctest.Get(t, team.NamespaceKind, "", name).GetDeletionTimestamp(); ts != nil {
						t.Fatalf("the refused destroy deleted namespace %s (deletionTimestamp %v)", name, ts)
					}
					acctest.Get(t, queue.LocalQueueKind, name, "training")
					if err := waitAdmitted(t, name); err != nil {
						t.Fatal(err)
					}
				},
				Config:           teamConfig("", body),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: teamConfig("", body+"  force_destroy = true\n"),
			},
		},
	})
}

// submitJob submits a small suspended Job to LocalQueue q in namespace ns, as `kubectl create`
// with the queue label does; Kueue admits it and unsuspends it.
func submitJob(t *testing.T, ns, q string) {
	t.Helper()
	cpu := corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("1")}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: ns, Labels: map[string]string{"kueue.x-k8s.io/queue-name": q}},
		Spec: batchv1.JobSpec{
			Suspend: ptr.To(true),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "train", Image: "trainer:1", Resources: corev1.ResourceRequirements{Requests: cpu}}},
			}},
		},
	}
	if _, err := kubernetes.NewForConfigOrDie(acctest.RestConfig(t)).BatchV1().Jobs(ns).Create(context.Background(), job, metav1.CreateOptions{}); err != nil {
		t.Fatalf("submit job: %v", err)
	}
}

// waitAdmitted waits until a Workload in namespace ns holds quota.
func waitAdmitted(t *testing.T, ns string) error {
	t.Helper()
	cfg := acctest.RestConfig(t)
	c := kube.NewClient(func() (*rest.Config, error) { return cfg, nil }, "")
	deadline := time.Now().Add(time.Minute)
	for {
		holding, err := queue.HoldingQuota(context.Background(), c, ns)
		if err != nil {
			return err
		}
		if len(holding) > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no Workload in %s was admitted within a minute", ns)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// noWorkloads fails if a Workload is left in namespace ns.
func noWorkloads(t *testing.T, ns string) error {
	list, err := acctest.Dynamic(t).Resource(queue.WorkloadKind.GVR).Namespace(ns).List(context.Background(), listAll)
	if err != nil {
		return err
	}
	if len(list.Items) > 0 {
		return fmt.Errorf("%d Workloads left in %s after destroy", len(list.Items), ns)
	}
	return nil
}
