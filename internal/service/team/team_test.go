package team_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/team"
)

// A team from creation to destroy: its namespace with billing and Kueue labels, LocalQueues on
// a ClusterQueue that admits it, access, the admission policy; updated, imported, drifted and
// restored; destroyed with everything in its namespace.
func TestAccTeam_lifecycle(t *testing.T) {
	name := acctest.Name("acc-team")
	ns := name + "-ns"
	cq := name + "-cq"
	created := fmt.Sprintf(`
  name          = %q
  namespace     = %q
  cost_centre   = "cc-1234"
  local_queues  = { training = %q }
  member_groups = ["nlp-engineers"]
`, name, ns, cq)
	updated := fmt.Sprintf(`
  name                     = %q
  namespace                = %q
  cost_centre              = "cc-5678"
  local_queues             = { training = %q, experiments = %q }
  member_groups            = ["nlp-engineers", "nlp-leads"]
  member_users             = ["alice@example.com"]
  workflow_service_account = "nlp-workflows"
  project_label            = "billing.example.com/project"
`, name, ns, cq, cq)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			clusterQueue(t, cq, map[string]any{"matchLabels": map[string]any{team.LabelTeam: name}})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := absent(t, team.NamespaceKind, "", ns); err != nil {
				return err
			}
			return absent(t, team.PolicyKind, "", team.PolicyName(ns))
		},
		Steps: []resource.TestStep{
			{
				Config: teamConfig("", created),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(teamAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+name)),
					statecheck.ExpectKnownValue(teamAddr, tfjsonpath.New("pod_labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						team.LabelTeam: knownvalue.StringExact(name), team.LabelCostCentre: knownvalue.StringExact("cc-1234")})),
					statecheck.ExpectKnownValue(teamAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"mlplatform.io/platform": knownvalue.StringExact("gpu"), team.LabelTeam: knownvalue.StringExact(name),
						team.LabelCostCentre: knownvalue.StringExact("cc-1234")})),
					statecheck.ExpectKnownValue(teamAddr, tfjsonpath.New("local_queue_names"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("training")})),
				},
				Check: func(*terraform.State) error {
					return checkTeam(t, ns, liveTeam{
						nsLabels: map[string]string{team.LabelTeam: name, team.LabelCostCentre: "cc-1234",
							"mlplatform.io/kueue-managed": "true", "mlplatform.io/platform": "gpu"},
						account: "training-workflow", queues: map[string]string{"training": cq},
						members: []string{"Group:nlp-engineers"}, projectLabel: "mlplatform.io/project"})
				},
			},
			{
				Config: teamConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(teamAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if err := absent(t, team.ServiceAccountKind, ns, "training-workflow"); err != nil {
						return fmt.Errorf("the renamed workflow service account: %w", err)
					}
					return checkTeam(t, ns, liveTeam{
						nsLabels: map[string]string{team.LabelTeam: name, team.LabelCostCentre: "cc-5678",
							"mlplatform.io/kueue-managed": "true", "mlplatform.io/platform": "gpu"},
						account: "nlp-workflows", queues: map[string]string{"training": cq, "experiments": cq},
						members:      []string{"Group:nlp-engineers", "Group:nlp-leads", "User:alice@example.com"},
						projectLabel: "billing.example.com/project"})
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            teamAddr,
				ImportState:             true,
				ImportStateId:           ns + "/" + name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// Relabelled and a queue deleted with kubectl: drift, restored by the next apply.
				PreConfig: func() {
					acctest.SetLabel(t, team.NamespaceKind, "", ns, team.LabelTeam, "someone-else")
					acctest.Delete(t, queue.LocalQueueKind, ns, "experiments")
				},
				Config: teamConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(teamAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					return checkTeam(t, ns, liveTeam{
						nsLabels: map[string]string{team.LabelTeam: name, team.LabelCostCentre: "cc-5678",
							"mlplatform.io/kueue-managed": "true", "mlplatform.io/platform": "gpu"},
						account: "nlp-workflows", queues: map[string]string{"training": cq, "experiments": cq},
						members:      []string{"Group:nlp-engineers", "Group:nlp-leads", "User:alice@example.com"},
						projectLabel: "billing.example.com/project"})
				},
			},
			{
				// Back: one queue, no users, no policy; what the configuration dropped is deleted.
				Config: teamConfig("", created+"  require_project_label = false\n"),
				Check: func(*terraform.State) error {
					if err := absent(t, queue.LocalQueueKind, ns, "experiments"); err != nil {
						return err
					}
					if err := absent(t, team.PolicyBindingKind, "", team.PolicyName(ns)); err != nil {
						return err
					}
					return absent(t, team.PolicyKind, "", team.PolicyName(ns))
				},
			},
		},
	})
}

type liveTeam struct {
	nsLabels     map[string]string // labels the namespace must carry (it may carry more)
	account      string
	queues       map[string]string // LocalQueue => ClusterQueue
	members      []string          // Kind:name, sorted
	projectLabel string
}

// checkTeam checks the team's live objects in namespace ns.
func checkTeam(t *testing.T, ns string, want liveTeam) error {
	t.Helper()
	labels := acctest.Get(t, team.NamespaceKind, "", ns).GetLabels()
	for k, v := range want.nsLabels {
		if labels[k] != v {
			return fmt.Errorf("namespace label %s = %q, want %q (labels %v)", k, labels[k], v, labels)
		}
	}
	acctest.Get(t, team.ServiceAccountKind, ns, want.account)
	var executor rbacv1.RoleBinding
	decode(t, acctest.Get(t, team.RoleBindingKind, ns, "mlplatform-workflow-executor"), &executor)
	if len(executor.Subjects) != 1 || executor.Subjects[0].Kind != "ServiceAccount" || executor.Subjects[0].Name != want.account {
		return fmt.Errorf("executor RoleBinding subjects %v, want ServiceAccount %s", executor.Subjects, want.account)
	}
	var role rbacv1.Role
	decode(t, acctest.Get(t, team.RoleKind, ns, "mlplatform-workflow-executor"), &role)
	if want := []rbacv1.PolicyRule{{APIGroups: []string{"argoproj.io"}, Resources: []string{"workflowtaskresults"},
		Verbs: []string{"create", "patch"}}}; !reflect.DeepEqual(role.Rules, want) {
		return fmt.Errorf("executor Role rules %v, want %v", role.Rules, want)
	}
	var members rbacv1.RoleBinding
	decode(t, acctest.Get(t, team.RoleBindingKind, ns, "mlplatform-team-members"), &members)
	var got []string
	for _, s := range members.Subjects {
		got = append(got, s.Kind+":"+s.Name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want.members) || members.RoleRef.Name != "mlplatform-team-member" {
		return fmt.Errorf("members RoleBinding %v to %s, want %v", got, members.RoleRef.Name, want.members)
	}
	list, err := acctest.Dynamic(t).Resource(queue.LocalQueueKind.GVR).Namespace(ns).List(t.Context(), listAll)
	if err != nil {
		return err
	}
	queues := map[string]string{}
	for _, lq := range list.Items {
		queues[lq.GetName()], _, _ = unstructured.NestedString(lq.Object, "spec", "clusterQueue")
		if lq.GetLabels()[team.LabelTeam] == "" {
			return fmt.Errorf("LocalQueue %s lacks the team label: %v", lq.GetName(), lq.GetLabels())
		}
	}
	if !maps.Equal(queues, want.queues) {
		return fmt.Errorf("LocalQueues %v, want %v", queues, want.queues)
	}
	policy := acctest.Get(t, team.PolicyKind, "", team.PolicyName(ns))
	vars, _, _ := unstructured.NestedSlice(policy.Object, "spec", "variables")
	if len(vars) != 1 || vars[0].(map[string]any)["expression"] != fmt.Sprintf("%q", want.projectLabel) {
		return fmt.Errorf("policy variables %v, want the key %s", vars, want.projectLabel)
	}
	acctest.Get(t, team.PolicyBindingKind, "", team.PolicyName(ns))
	return nil
}

func decode(t *testing.T, obj *unstructured.Unstructured, into any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, into); err != nil {
		t.Fatal(err)
	}
}
