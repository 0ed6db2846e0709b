package faulttest

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/rest"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Credentials whose ClusterRole allows everything on ResourceFlavors and ClusterQueues except
// `patch` on clusterqueues (server-side apply is a patch): the apply fails at the first refused
// call, the one PATCH of the queue, not after retrying, with an error that names the verb, the
// resource, its group and the user, so the missing rule can be read off it. The flavor, which the
// role allows, is written.
func TestFault_rbacLacksOneVerb(t *testing.T) {
	requireCluster(t)
	prefix := prefixFor("rbac")
	sa := prefix + "-provider"
	token := acctest.ServiceAccountToken(t, sa, []rbacv1.PolicyRule{
		{APIGroups: []string{"kueue.x-k8s.io"}, Resources: []string{"resourceflavors"}, Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"}},
		{APIGroups: []string{"kueue.x-k8s.io"}, Resources: []string{"clusterqueues"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}},
	}...)
	// The proxy adds no credentials of its own: the provider's token goes through, and the proxy
	// counts the calls.
	anonymous := &rest.Config{Host: admin.Host, TLSClientConfig: rest.TLSClientConfig{CAData: admin.CAData, CAFile: admin.CAFile}}
	proxy := newProxyTo(t, anonymous, 0, nil)
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 1, ""), proxy.env("KUBE_TOKEN="+token)...)
	t.Cleanup(func() { _, _, _ = ws.Direct().Run(t, "destroy", "-auto-approve", "-input=false") })

	out, _, err := ws.Run(t, "apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("the apply succeeded without patch on clusterqueues:\n%s", out)
	}
	user := "system:serviceaccount:default:" + sa
	want := regexp.MustCompile(`(?s)Error: Applying ClusterQueue ` + prefix + `-q0.*RBAC\s+refused\s+verb\s+"patch"\s+on\s+resource\s+"clusterqueues"\s+\(group\s+"kueue.x-k8s.io"\).*User\s+"` + regexp.QuoteMeta(user) + `"\s+cannot\s+patch\s+resource\s+"clusterqueues"`)
	if !want.MatchString(out) {
		t.Errorf("the error does not name the verb, the resource and the user %s:\n%s", user, out)
	}
	patches := 0
	for _, e := range proxy.recorded() {
		if !e.bearer {
			t.Errorf("%s reached the proxy without the token", e.key)
		}
		if strings.HasPrefix(e.key, http.MethodPatch+" /apis/kueue.x-k8s.io/v1beta2/clusterqueues/") {
			patches++
			if e.status != http.StatusForbidden {
				t.Errorf("%s answered %d; want 403", e.key, e.status)
			}
		}
	}
	if patches != 1 {
		t.Errorf("the provider sent the refused PATCH %d times; want once (a 403 is final)", patches)
	}
	st := byName(t, ws.State(t))
	if _, ok := st[prefix+"-f0"]; !ok || len(st) != 1 {
		t.Errorf("the state holds %v; want the flavor alone", st)
	}
}
