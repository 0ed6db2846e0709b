package faulttest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

var (
	resourceFlavors = schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "resourceflavors"}
	clusterQueues   = schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "clusterqueues"}
)

// queuesConfig is n ResourceFlavors and n ClusterQueues (one flavor each) named prefix-f<i> and
// prefix-q<i>, with wait_for_active = false (no Kueue controller runs) and timeout as each
// resource's create, update and delete timeout ("" for the default). n = 50 is the W100 workload.
func queuesConfig(prefix string, n int, timeout string) string {
	timeouts := ""
	if timeout != "" {
		timeouts = fmt.Sprintf("\n  timeouts {\n    create = %[1]q\n    update = %[1]q\n    delete = %[1]q\n  }", timeout)
	}
	return acctest.WorkspaceProviders + fmt.Sprintf(`
resource "mlplatform_resource_flavor" "f" {
  count = %[2]d
  name  = "%[1]s-f${count.index}"
  node_labels = { "mlplatform.io/fault-test" = "%[1]s" }%[3]s
}

resource "mlplatform_cluster_queue" "q" {
  count           = %[2]d
  name            = "%[1]s-q${count.index}"
  wait_for_active = false
  resource_group {
    covered_resources = ["cpu"]
    flavor {
      name = mlplatform_resource_flavor.f[count.index].name
      resource {
        name          = "cpu"
        nominal_quota = "1"
      }
    }
  }%[3]s
}
`, prefix, n, timeouts)
}

// liveQueues is the UID of every ResourceFlavor and ClusterQueue in the cluster whose name starts
// with prefix, by name.
func liveQueues(t *testing.T, prefix string) map[string]string {
	t.Helper()
	client := dynamic.NewForConfigOrDie(admin)
	out := map[string]string{}
	for _, gvr := range []schema.GroupVersionResource{resourceFlavors, clusterQueues} {
		list, err := client.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatalf("listing %s: %v", gvr.Resource, err)
		}
		for _, o := range list.Items {
			if strings.HasPrefix(o.GetName(), prefix+"-") && o.GetDeletionTimestamp() == nil {
				out[o.GetName()] = string(o.GetUID())
			}
		}
	}
	return out
}

// byName indexes a state's entries by object name; it fails the test on two entries of one
// object.
func byName(t *testing.T, st map[string]acctest.StateEntry) map[string]acctest.StateEntry {
	t.Helper()
	out := map[string]acctest.StateEntry{}
	for _, e := range st {
		if other, dup := out[e.Name]; dup {
			t.Errorf("the state holds %s twice: %s and %s", e.Name, other.Address, e.Address)
		}
		out[e.Name] = e
	}
	return out
}

// prefixFor is a per-run name prefix, so that runs on a shared cluster never collide.
func prefixFor(what string) string {
	return fmt.Sprintf("ft-%s-%d", what, time.Now().UnixNano()%1_000_000)
}
