package provider_test

import (
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Provider-level behaviour needs only the API server and the CRDs, not Kueue's controller.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }

// priorityClasses are what these tests write: a Kueue object that needs nothing else.
var priorityClasses = kube.Kind{
	GVR:  schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "workloadpriorityclasses"},
	Kind: "WorkloadPriorityClass", Requires: "Kueue v0.15 or newer",
}
