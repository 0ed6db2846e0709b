package team_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The real API server runs the team's admission policy: a pod without the project label is
// refused with a message naming the label, a labelled one is admitted, and a team without the
// policy admits both.
func TestAccTeam_projectLabelPolicy(t *testing.T) {
	name := acctest.Name("acc-team-policy")
	const key = "acme.example/project"
	body := fmt.Sprintf("  name = %q\n  project_label = %q\n", name, key)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: teamConfig("", body),
				Check: func(*terraform.State) error {
					// The API server picks a new policy up within a second or so: wait for the refusal.
					err := eventually(func() error {
						err := createPod(t, name, "unlabelled", nil)
						if err == nil {
							deletePod(t, name, "unlabelled")
							return fmt.Errorf("a pod without %s was admitted", key)
						}
						return err
					}, apierrors.IsForbidden)
					if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "must carry the label "+key) {
						return fmt.Errorf("unlabelled pod: got %w, want a refusal naming %s", err, key)
					}
					if err := createPod(t, name, "empty", map[string]string{key: ""}); !apierrors.IsForbidden(err) {
						return fmt.Errorf("pod with an empty %s: got %w, want a refusal", key, err)
					}
					if err := createPod(t, name, "labelled", map[string]string{key: "sentiment"}); err != nil {
						return fmt.Errorf("labelled pod refused: %w", err)
					}
					return nil
				},
			},
			{
				// The pods made here are not the team's: only force_destroy lets its destroy delete them.
				Config: teamConfig("", body+"  require_project_label = false\n  force_destroy = true\n"),
				Check: func(*terraform.State) error {
					return eventually(func() error { return createPod(t, name, "free", nil) }, func(err error) bool { return err == nil })
				},
			},
		},
	})
}

func pods(t *testing.T, ns string) interface {
	Create(context.Context, *corev1.Pod, metav1.CreateOptions) (*corev1.Pod, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
} {
	return kubernetes.NewForConfigOrDie(acctest.RestConfig(t)).CoreV1().Pods(ns)
}

// createPod creates a pod with labels in namespace ns; nothing runs it.
func createPod(t *testing.T, ns, name string, labels map[string]string) error {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "busybox"}}},
	}
	_, err := pods(t, ns).Create(context.Background(), pod, metav1.CreateOptions{})
	return err
}

func deletePod(t *testing.T, ns, name string) {
	if err := pods(t, ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete pod %s/%s: %v", ns, name, err)
	}
}

// eventually calls try until done accepts its result, for up to 30 seconds, and returns the last result.
func eventually(try func() error, done func(error) bool) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := try()
		if done(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
}
