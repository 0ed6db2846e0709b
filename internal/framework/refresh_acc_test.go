package framework_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// Refresh never forgets: only a 404 of an API the cluster serves removes a resource from state.
// An API that is not served, a refusal, or a server error fails the refresh and keeps the state,
// which the next plan against the healthy cluster shows: no change.

func wpcConfig(providerBody, name string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  %[1]s
}

resource "mlplatform_workload_priority_class" "test" {
  name  = %[2]q
  value = 100
}
`, providerBody, name)
}

func TestAccRefresh_keepsStateOnServerErrorAndRefusal(t *testing.T) {
	name := acctest.Name("acc-keep")
	unreachable, _ := acctest.UnreachableCluster(t)
	noRights := filepath.Join(t.TempDir(), "kubeconfig") // the steps' configs name it; PreCheck writes it
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			writeKubeconfigWithoutRights(t, noRights)
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wpcConfig("", name)},
			{
				// The API server answers 503.
				Config:      wpcConfig(fmt.Sprintf("host = %q", unreachable), name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Reading WorkloadPriorityClass ` + regexp.QuoteMeta(name)),
			},
			{
				// The credentials may not read the object.
				Config:      wpcConfig(fmt.Sprintf("config_path = %q", noRights), name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`RBAC refused verb "get" on resource "workloadpriorityclasses"`),
			},
			// The state still holds the object: against the healthy cluster, nothing to do.
			{Config: wpcConfig("", name), PlanOnly: true},
		},
	})
}

// An API that stops being served (Kueue uninstalled, its CRD being replaced) is an error naming
// what to install, not a deleted object; once served again, a 404 does mean gone.
func TestAccRefresh_keepsStateWhileTheAPIIsNotServed(t *testing.T) {
	name := acctest.Name("acc-unserved")
	const crdName = "workloadpriorityclasses.kueue.x-k8s.io"
	var crd *unstructured.Unstructured
	resource.Test(t, resource.TestCase{ // not parallel: it removes an API that other tests may use
		PreCheck:                 func() { acctest.RequireOwnCluster(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: wpcConfig("", name)},
			{
				PreConfig:   func() { crd = deleteCRD(t, crdName) },
				Config:      wpcConfig("", name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Kueue v0.15 or newer \(kueue.x-k8s.io/v1beta2\) is not installed on this\s+cluster`),
			},
			{
				// Served again: the object went with its CRD, a true 404, so the plan re-creates it.
				PreConfig:          func() { restoreCRD(t, crd) },
				Config:             wpcConfig("", name),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: wpcConfig("", name)},
		},
	})
}

var crds = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// deleteCRD deletes a CRD, waits until it is gone, and returns it for restoreCRD.
func deleteCRD(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	client := acctest.Dynamic(t).Resource(crds)
	crd, err := client.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { restoreCRD(t, crd) })
	if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	if err != nil {
		t.Fatalf("CRD %s not gone: %v", name, err)
	}
	return crd
}

// restoreCRD installs crd again (once) and waits until it is Established.
func restoreCRD(t *testing.T, crd *unstructured.Unstructured) {
	t.Helper()
	ctx := context.Background()
	client := acctest.Dynamic(t).Resource(crds)
	if _, err := client.Get(ctx, crd.GetName(), metav1.GetOptions{}); err == nil {
		return
	} else if !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	fresh := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": crd.GetAPIVersion(), "kind": crd.GetKind(),
		"metadata": map[string]any{"name": crd.GetName()},
		"spec":     crd.Object["spec"],
	}}
	if _, err := client.Create(ctx, fresh, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		obj, err := client.Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
		for _, c := range conditions {
			if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("CRD %s not established again: %v", crd.GetName(), err)
	}
}

// writeKubeconfigWithoutRights writes to path a kubeconfig for a new ServiceAccount that no role
// binds.
func writeKubeconfigWithoutRights(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	cfg := acctest.RestConfig(t)
	admin := kubernetes.NewForConfigOrDie(cfg)
	sa := acctest.Name("acc-no-rights")
	if _, err := admin.CoreV1().ServiceAccounts("default").Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = admin.CoreV1().ServiceAccounts("default").Delete(context.Background(), sa, metav1.DeleteOptions{})
	})
	tok, err := admin.CoreV1().ServiceAccounts("default").CreateToken(ctx, sa, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["c"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData, CertificateAuthority: cfg.CAFile}
	kc.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: tok.Status.Token}
	kc.Contexts["c"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	kc.CurrentContext = "c"
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
}
