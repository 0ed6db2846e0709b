package testcluster

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

// WatchExit watches pod p from now on and returns a wait for the exit code of its container "main"
// (a training template's trainer): KWOK reports it as a kubelet does, and a deleted pod goes as
// soon as its finalizers are removed, too soon for a poll to see.
func WatchExit(t *testing.T, pods typedcorev1.PodInterface, p *corev1.Pod) (wait func() int32) {
	t.Helper()
	w, err := pods.Watch(t.Context(), metav1.ListOptions{FieldSelector: "metadata.name=" + p.Name, ResourceVersion: p.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	return func() int32 {
		defer w.Stop()
		timeout := time.After(2 * time.Minute)
		for {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatalf("the watch of pod %s ended before its trainer exited", p.Name)
				}
				if pod, isPod := ev.Object.(*corev1.Pod); isPod {
					for _, c := range pod.Status.ContainerStatuses {
						if c.Name == "main" && c.State.Terminated != nil {
							return c.State.Terminated.ExitCode
						}
					}
				}
			case <-timeout:
				t.Fatalf("pod %s's trainer did not exit within 2m", p.Name)
			}
		}
	}
}
