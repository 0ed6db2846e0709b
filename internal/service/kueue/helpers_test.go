package kueue_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Helpers shared by the queue tests.

// kueueServing reports whether Kueue's controller manager serves the test cluster: its
// ClusterQueue validating webhook is installed. Without it the cluster checks Kueue objects with
// the CRD schema alone and nothing makes queues Active.
func kueueServing(t *testing.T) bool {
	t.Helper()
	list, err := kubernetes.NewForConfigOrDie(acctest.RestConfig(t)).AdmissionregistrationV1().
		ValidatingWebhookConfigurations().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing webhook configurations: %v", err)
	}
	for _, c := range list.Items {
		for _, w := range c.Webhooks {
			if w.Name == "vclusterqueue.kb.io" {
				return true
			}
		}
	}
	return false
}

// requireKueue fails a test that needs Kueue's controller and webhooks when they do not run:
// such a test cannot pass by skipping.
func requireKueue(t *testing.T) {
	t.Helper()
	acctest.PreCheck(t)
	if !kueueServing(t) {
		t.Fatal("needs Kueue's controller manager and webhooks on the test cluster (testcluster.WithKueue, or a " +
			"KUBECONFIG cluster with Kueue v0.19 installed): its ClusterQueue webhook vclusterqueue.kb.io is not installed")
	}
}

// deleteAndWait deletes an object outside Terraform and waits until it is gone (Kueue's
// finalizers are removed by its controller a moment later).
func deleteAndWait(t *testing.T, k kube.Kind, namespace, name string) {
	t.Helper()
	acctest.Delete(t, k, namespace, name)
	waitGone(t, k, namespace, name)
}

// waitGone waits until reading the object answers NotFound; any other error fails at once.
func waitGone(t *testing.T, k kube.Kind, namespace, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil:
			return false, nil
		case apierrors.IsNotFound(err):
			return true, nil
		default:
			return false, err
		}
	})
	if err != nil {
		t.Fatalf("%s %s/%s not gone: %v", k, namespace, name, err)
	}
}

// waitFor polls an object until check returns nil, failing the test with check's last error. An
// object not there yet (NotFound) is waited for; any other read error fails at once.
func waitFor(t *testing.T, k kube.Kind, namespace, name string, timeout time.Duration, check func(*unstructured.Unstructured) error) *unstructured.Unstructured {
	t.Helper()
	var last error
	var obj *unstructured.Unstructured
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		o, err := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			last = err
			return false, nil
		case err != nil:
			return false, fmt.Errorf("reading it: %w", err)
		}
		obj, last = o, check(o)
		return last == nil, nil
	})
	if err != nil && !wait.Interrupted(err) {
		t.Fatalf("%s %s/%s: %v", k, namespace, name, err)
	}
	if last != nil {
		t.Fatalf("%s %s/%s: %v", k, namespace, name, last)
	}
	return obj
}

// hclValue renders a Go value (from a Kubernetes object) as an HCL expression.
func hclValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = hclValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q = %s", k, hclValue(v[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	default:
		return fmt.Sprint(v)
	}
}
