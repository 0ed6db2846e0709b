package team_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/team"
)

var (
	secretKind = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("secrets"), Kind: "Secret", Namespaced: true}
	eventKind  = kube.Kind{GVR: corev1.SchemeGroupVersion.WithResource("events"), Kind: "Event", Namespaced: true}
)

// A team's destroy never deletes what the team did not write: with a ConfigMap and a Secret made
// with kubectl in its namespace, it is refused when Terraform plans it, naming exactly those two
// (not what Kubernetes writes into every namespace, not an object another one owns, not the
// LocalQueue another resource writes there), and nothing is deleted, not even that LocalQueue,
// which depends on the team (the apiserver's record of the provider's writes is empty). With
// force_destroy the team goes, and they with it.
func TestAccTeam_destroyKeepsWhatItDidNotWrite(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-team-others")
	body := fmt.Sprintf("  name = %q\n  require_project_label = false\n", name)
	config := teamConfigWith("", body, dependentQueue(name+"-cq"))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return absent(t, team.NamespaceKind, "", name) },
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					kubectlObjects(t, name)
					kubernetesObjects(t, name)
					return nil
				},
			},
			{
				Config:  teamConfigWith(rec.ProviderSetting(), body, dependentQueue(name+"-cq")),
				Destroy: true,
				ExpectError: planRefusal("Destroying team "+name+" would delete what it did not write",
					"did not write: ConfigMap "+name+"/settings, Secret "+name+"/credentials. Move", "Nothing was deleted."),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the refused destroy")
					acctest.Get(t, queue.LocalQueueKind, name, "dependent")
					acctest.Get(t, kube.ConfigMapKind, name, "settings")
					acctest.Get(t, secretKind, name, "credentials")
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: teamConfigWith("", body+"  force_destroy = true\n", dependentQueue(name+"-cq")),
			},
		},
	})
}

// The destroy fails closed: with credentials that may do everything the team's destroy needs but
// list Workloads, it cannot tell whether one would be lost, so it is refused when Terraform plans
// it, naming the refused list; the Workload in the namespace (which the team did not write, and
// which nothing else would refuse) and the LocalQueue that depends on the team are still there, and
// the apiserver's record of what those credentials wrote is empty.
func TestAccTeam_destroyRefusedWhenItCannotLook(t *testing.T) {
	acctest.RequireCluster(t) // before resource.Test: the setup below comes first
	name := acctest.Name("acc-team-blind")
	cq := name + "-cq"
	body := fmt.Sprintf("  name = %q\n  local_queues = { training = %q }\n  require_project_label = false\n", name, cq)
	admin := teamConfigWith("", body, dependentQueue(cq))
	rec := acctest.RecordWrites(t, allButListingWorkloads(t)...)
	limited := teamConfigWith(rec.ProviderSetting(), body, dependentQueue(cq))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { clusterQueue(t, cq, map[string]any{}) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := absent(t, team.NamespaceKind, "", name); err != nil {
				return err
			}
			return noWorkloads(t, name)
		},
		Steps: []resource.TestStep{
			{
				Config: admin,
				Check: func(*terraform.State) error {
					submitWorkload(t, name, "training")
					return nil
				},
			},
			{
				Config:  limited,
				Destroy: true,
				ExpectError: planRefusal("Cannot tell what destroying team "+name+" would delete",
					`refused verb "list" on resource "workloads" (group "kueue.x-k8s.io") in namespace `+name, "Nothing was deleted."),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the refused destroy")
					acctest.Get(t, queue.WorkloadKind, name, "direct")
					acctest.Get(t, queue.LocalQueueKind, name, "dependent")
				},
				Config:           admin,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: teamConfigWith("", body+"  force_destroy = true\n", dependentQueue(cq)),
			},
		},
	})
}

// What an import adopted is the team's own before an apply marks it: a team imported over a
// namespace and a Role made with kubectl is refused at plan for a ConfigMap there, naming it alone,
// writing nothing, and once the ConfigMap is gone its destroy deletes the namespace.
func TestAccTeam_destroyAfterImport(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-team-imported")
	config := teamConfig("", fmt.Sprintf("  name = %q\n", name))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.ApplyAs(t, "kubectl", team.NamespaceKind, "", map[string]any{
				"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}})
			acctest.ApplyAs(t, "kubectl", team.RoleKind, name, map[string]any{
				"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
				"metadata": map[string]any{"name": "mlplatform-team-member", "namespace": name}})
			acctest.ApplyAs(t, "kubectl", kube.ConfigMapKind, name, map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "notes", "namespace": name}})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return absent(t, team.NamespaceKind, "", name) },
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       teamAddr,
				ImportState:        true,
				ImportStateId:      name + "/" + name,
				ImportStatePersist: true,
			},
			{
				Config:      teamConfigWith(rec.ProviderSetting(), fmt.Sprintf("  name = %q\n", name), ""),
				Destroy:     true,
				ExpectError: planRefusal("did not write: ConfigMap " + name + "/notes. Move"),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the refused destroy")
					acctest.Delete(t, kube.ConfigMapKind, name, "notes")
				},
				Config:  config,
				Destroy: true,
			},
		},
	})
}

// planRefusal matches an error of Terraform's plan (not of the apply) that says each of parts, in
// order, however Terraform wraps them.
func planRefusal(parts ...string) *regexp.Regexp {
	words := make([]string, len(parts))
	for i, p := range parts {
		words[i] = acctest.Words(p).String()
	}
	return regexp.MustCompile(`(?s)Error running pre-apply plan.*` + strings.Join(words, ".*"))
}

// dependentQueue is a LocalQueue of another resource in the team's namespace: it depends on the
// team, so Terraform destroys it first.
func dependentQueue(clusterQueue string) string {
	return fmt.Sprintf(`
resource "mlplatform_local_queue" "dependent" {
  name          = "dependent"
  namespace     = mlplatform_team.test.namespace
  cluster_queue = %q
}
`, clusterQueue)
}

// kubectlObjects are what a team member makes with kubectl in namespace ns: a ConfigMap and a
// Secret, and a ConfigMap that the first one owns (it goes with its owner).
func kubectlObjects(t *testing.T, ns string) {
	t.Helper()
	meta := func(name string) map[string]any { return map[string]any{"name": name, "namespace": ns} }
	acctest.ApplyAs(t, "kubectl", kube.ConfigMapKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("settings"), "data": map[string]any{"batch_size": "64"}})
	acctest.ApplyAs(t, "kubectl", secretKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "Secret", "metadata": meta("credentials"), "data": map[string]any{"token": "czNjcjN0"}})
	owned := meta("settings-rendered")
	owned["ownerReferences"] = []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "settings",
		"uid": string(acctest.Get(t, kube.ConfigMapKind, ns, "settings").GetUID())}}
	acctest.ApplyAs(t, "kubectl", kube.ConfigMapKind, ns, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": owned})
}

// kubernetesObjects are what kube-controller-manager writes into every namespace (the local
// control plane runs none of the controllers that do), and an Event about the ConfigMap.
func kubernetesObjects(t *testing.T, ns string) {
	t.Helper()
	meta := func(name string) map[string]any { return map[string]any{"name": name, "namespace": ns} }
	acctest.ApplyAs(t, "kube-controller-manager", kube.ConfigMapKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("kube-root-ca.crt"), "data": map[string]any{"ca.crt": "-"}})
	acctest.ApplyAs(t, "kube-controller-manager", team.ServiceAccountKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta("default")})
	acctest.ApplyAs(t, "kube-controller-manager", eventKind, ns, map[string]any{
		"apiVersion": "v1", "kind": "Event", "metadata": meta("settings.made"), "reason": "Made", "type": "Normal",
		"message": "settings made", "involvedObject": map[string]any{"kind": "ConfigMap", "namespace": ns, "name": "settings"}})
}

// submitWorkload creates Workload "direct" in namespace ns for LocalQueue q, as a tool that
// submits Workloads itself (no job owns it) would.
func submitWorkload(t *testing.T, ns, q string) {
	t.Helper()
	container := map[string]any{"name": "train", "image": "trainer:1", "resources": map[string]any{"requests": map[string]any{"cpu": "1"}}}
	create(t, queue.WorkloadKind, ns, map[string]any{"name": "direct", "namespace": ns}, map[string]any{
		"queueName": q,
		"podSets": []any{map[string]any{"name": "main", "count": 1, "template": map[string]any{"spec": map[string]any{
			"restartPolicy": "Never", "containers": []any{container}}}}},
	})
}

// allButListingWorkloads are rules for everything a team's destroy does but list Workloads: get
// and delete anything, and list every namespaced type the cluster serves but Workloads.
func allButListingWorkloads(t *testing.T) []rbacv1.PolicyRule {
	t.Helper()
	lists, err := discovery.ServerPreferredNamespacedResources(discovery.NewDiscoveryClientForConfigOrDie(acctest.RestConfig(t)))
	if err != nil {
		t.Fatal(err)
	}
	rules := []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"get", "delete"}}}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			if gv.Group != queue.WorkloadKind.GVR.Group || r.Name != queue.WorkloadKind.GVR.Resource {
				rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{gv.Group}, Resources: []string{r.Name}, Verbs: []string{"list"}})
			}
		}
	}
	return rules
}
