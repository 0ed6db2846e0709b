package faulttest

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
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
	token := serviceAccountToken(t, sa, []rbacv1.PolicyRule{
		{APIGroups: []string{"kueue.x-k8s.io"}, Resources: []string{"resourceflavors"}, Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"}},
		{APIGroups: []string{"kueue.x-k8s.io"}, Resources: []string{"clusterqueues"}, Verbs: []string{"get", "list", "watch", "create", "update", "delete"}},
	})
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

// serviceAccountToken creates ServiceAccount name in namespace default, bound to a ClusterRole
// with exactly rules, and returns a token for it; all of it goes when the test ends.
func serviceAccountToken(t *testing.T, name string, rules []rbacv1.PolicyRule) string {
	t.Helper()
	ctx := context.Background()
	client := kubernetes.NewForConfigOrDie(admin)
	meta := metav1.ObjectMeta{Name: name}
	if _, err := client.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: meta}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.CoreV1().ServiceAccounts("default").Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	if _, err := client.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: meta, Rules: rules}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.RbacV1().ClusterRoles().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: meta,
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: "default"}},
	}
	if _, err := client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.RbacV1().ClusterRoleBindings().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	tok, err := client.CoreV1().ServiceAccounts("default").CreateToken(ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Status.Token
}
