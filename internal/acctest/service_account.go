package acctest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// ServiceAccountToken creates a ServiceAccount name in namespace default, allowed exactly rules
// cluster-wide (none when rules is empty), and returns a bearer token for it. Everything it
// creates is removed when the test ends, so a shared cluster keeps nothing.
func ServiceAccountToken(t *testing.T, name string, rules ...rbacv1.PolicyRule) string {
	t.Helper()
	return serviceAccountToken(t, "default", name, rules)
}

// serviceAccountToken is ServiceAccountToken for a ServiceAccount of namespace.
func serviceAccountToken(t *testing.T, namespace, name string, rules []rbacv1.PolicyRule) string {
	t.Helper()
	ctx := context.Background()
	admin := kubernetes.NewForConfigOrDie(RestConfig(t))
	meta := metav1.ObjectMeta{Name: name}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}}
	if _, err := admin.CoreV1().ServiceAccounts(namespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = admin.CoreV1().ServiceAccounts(namespace).Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	if len(rules) > 0 {
		role := &rbacv1.ClusterRole{ObjectMeta: meta, Rules: rules}
		if _, err := admin.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = admin.RbacV1().ClusterRoles().Delete(context.Background(), name, metav1.DeleteOptions{}) })
		binding := &rbacv1.ClusterRoleBinding{
			ObjectMeta: meta,
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: namespace}},
		}
		if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = admin.RbacV1().ClusterRoleBindings().Delete(context.Background(), name, metav1.DeleteOptions{})
		})
	}
	tok, err := admin.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Status.Token
}

// TokenKubeconfig writes a kubeconfig for the test cluster that authenticates with token alone and
// returns its path, for a provider block's config_path: the provider then uses none of the
// admin's credentials that KUBE_CONFIG_PATHS names.
func TokenKubeconfig(t *testing.T, token string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, TokenKubeconfigData(t, token), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TokenKubeconfigData is TokenKubeconfig's content with the cluster's CA as data, never a file:
// the form Kueue's MultiKueue accepts for a worker.
func TokenKubeconfigData(t *testing.T, token string) []byte {
	t.Helper()
	admin := RestConfig(t)
	ca := admin.CAData
	if len(ca) == 0 && admin.CAFile != "" {
		var err error
		if ca, err = os.ReadFile(admin.CAFile); err != nil {
			t.Fatal(err)
		}
	}
	cfg := clientcmdapi.Config{
		Clusters: map[string]*clientcmdapi.Cluster{"test": {
			Server: admin.Host, InsecureSkipTLSVerify: admin.Insecure, TLSServerName: admin.ServerName,
			CertificateAuthorityData: ca,
		}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"token": {Token: token}},
		Contexts:       map[string]*clientcmdapi.Context{"test": {Cluster: "test", AuthInfo: "token"}},
		CurrentContext: "test",
	}
	data, err := clientcmd.Write(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
