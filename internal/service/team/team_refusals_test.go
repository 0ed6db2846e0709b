package team_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/team"
)

// Mistakes in the configuration are plan errors naming the attribute, with no API call; a valid
// team plans with no cluster at all.
func TestAccTeam_refusedAtPlan(t *testing.T) {
	all := map[string]acctest.PlanCase{}
	for _, tc := range []struct{ name, body, want string }{
		{"namespace", `name = "nlp"
namespace = "NLP_team"`, `Attribute namespace: "NLP_team" is not a valid RFC 1123 label`},
		{"project label", `name = "nlp"
project_label = "project label"`, `Attribute project_label: "project label" is not a valid Kubernetes key`},
		{"no members", `name = "nlp"
member_groups = []`, `Attribute member_groups set must contain at least 1 elements`},
		{"queue name", `name = "nlp"
local_queues = { "Training" = "nlp" }`, `"Training" is not a valid Kubernetes name`},
		{"cost centre", `name = "nlp"
cost_centre = "cc 1234"`, `Attribute cost_centre: "cc 1234" is not a valid Kubernetes label value`},
	} {
		all[tc.name] = acctest.PlanCase{Config: func(host string) string { return teamConfig(host, tc.body) }, Want: acctest.Words(tc.want)}
	}
	acctest.PlanCases(t, all)
	t.Run("valid", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string {
			return teamConfig(host, `name = "nlp"
local_queues = { training = "nlp" }
member_groups = ["nlp-engineers"]`)
		}, nil)
	})
}

// Refusals that need the cluster come before anything is written: a namespace that exists, and
// a ClusterQueue that would not admit the team's namespace. A queue cannot move to another
// ClusterQueue: the plan says how to move it instead. The provider writes as an identity whose
// every write the apiserver records, so "nothing" covers every object a team may write (the taken
// namespace's labels, the service accounts, roles and bindings, the cluster-scoped admission policy
// and its binding), not the few a test would think to look at.
func TestAccTeam_refusedBeforeWriting(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-team-refused")
	taken := name + "-taken"
	cq, closed, other := name+"-cq", name+"-closed", name+"-other"
	config := func(body string) string { return teamConfigWith(rec.ProviderSetting(), body, "") }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			clusterQueue(t, cq, map[string]any{})
			clusterQueue(t, closed, map[string]any{"matchLabels": map[string]any{team.LabelTeam: "someone-else"}})
			clusterQueue(t, other, map[string]any{})
			ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: taken}}
			if _, err := kubernetes.NewForConfigOrDie(acctest.RestConfig(t)).CoreV1().Namespaces().Create(t.Context(), ns, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config(fmt.Sprintf("name = %q\nnamespace = %q", name, taken)),
				ExpectError: acctest.Words("Namespace " + taken + " already exists and was not created by this resource"),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for an existing namespace") },
				Config:    config(fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, closed)),
				ExpectError: regexp.MustCompile(`(?s)ClusterQueue ` + closed + ` does not admit namespace ` + name +
					`.*does\s+not\s+select.*Nothing\s+was\s+written`),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the apply refused for a ClusterQueue that does not admit the namespace")
					if err := absent(t, team.NamespaceKind, "", name); err != nil {
						t.Fatalf("after the refusal: %v", err)
					}
				},
				Config: config(fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, cq)),
				Check: func(*terraform.State) error {
					// The record is live: it holds this apply's writes, the policy and its binding too.
					ws := rec.Take(t)
					policy := "mlplatform-require-project-" + name
					for k, n := range map[kube.Kind]string{team.NamespaceKind: name, team.PolicyKind: policy, team.PolicyBindingKind: policy} {
						if !ws.Has(k, "", n) {
							return fmt.Errorf("the apiserver's record of the apply has no write of %s %s:\n%s", k.Kind, n, ws)
						}
					}
					return nil
				},
			},
			{
				Config:      config(fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, other)),
				ExpectError: acctest.Words("A LocalQueue cannot move to another ClusterQueue"),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the plan refused for a LocalQueue moving to another ClusterQueue") },
				Config:    config(fmt.Sprintf("name = %q\nlocal_queues = { training-v2 = %q }", name, other)),
			},
		},
	})
}
