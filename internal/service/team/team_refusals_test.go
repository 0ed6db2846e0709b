package team_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
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
// ClusterQueue: the plan says how to move it instead.
func TestAccTeam_refusedBeforeWriting(t *testing.T) {
	name := acctest.Name("acc-team-refused")
	taken := name + "-taken"
	cq, closed, other := name+"-cq", name+"-closed", name+"-other"
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
				Config:      teamConfig("", fmt.Sprintf("name = %q\nnamespace = %q", name, taken)),
				ExpectError: acctest.Words("Namespace " + taken + " already exists and was not created by this resource"),
			},
			{
				Config: teamConfig("", fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, closed)),
				ExpectError: regexp.MustCompile(`(?s)ClusterQueue ` + closed + ` does not admit namespace ` + name +
					`.*does\s+not\s+select.*Nothing\s+was\s+written`),
			},
			{
				PreConfig: func() {
					if err := absent(t, team.NamespaceKind, "", name); err != nil {
						t.Fatalf("after the refusal: %v", err)
					}
				},
				Config: teamConfig("", fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, cq)),
			},
			{
				Config:      teamConfig("", fmt.Sprintf("name = %q\nlocal_queues = { training = %q }", name, other)),
				ExpectError: acctest.Words("A LocalQueue cannot move to another ClusterQueue"),
			},
			{
				Config: teamConfig("", fmt.Sprintf("name = %q\nlocal_queues = { training-v2 = %q }", name, other)),
			},
		},
	})
}
