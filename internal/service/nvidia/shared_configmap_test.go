package nvidia_test

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// A ConfigMap shared by several writers: each resource owns the keys it declares, never the
// ConfigMap and never another's keys.

// sharedTS is a time-slicing resource `res` writing keys (each a config of 2 replicas) into
// ConfigMap name of namespace ns.
func sharedTS(res, ns, name string, keys ...string) string {
	configs := make([]string, len(keys))
	for i, k := range keys {
		configs[i] = fmt.Sprintf("%q = { resources = [{ name = \"nvidia.com/gpu\", replicas = 2 }] }", k)
	}
	return fmt.Sprintf(`
resource "mlplatform_time_slicing_config" %[1]q {
  namespace = %[2]q
  name      = %[3]q
  configs   = { %[4]s }
}
`, res, ns, name, strings.Join(configs, ", "))
}

// timeSliced is the device plugin config a time-slicing key of sharedTS holds: every GPU shared by
// replicas pods, the plugin's flags left to their defaults.
func timeSliced(replicas int) string {
	return fmt.Sprintf(`sharing:
  timeSlicing:
    failRequestsGreaterThanOne: false
    renameByDefault: false
    resources:
    - name: nvidia.com/gpu
      replicas: %d
version: v1
`, replicas)
}

// slicedKeys is the data of sharedTS's keys.
func slicedKeys(keys ...string) map[string]string {
	data := make(map[string]string, len(keys))
	for _, k := range keys {
		data[k] = timeSliced(2)
	}
	return data
}

// pluginDefault is the key another tool (the GPU Operator's chart) wrote in these tests.
const pluginDefault = "version: v1\n"

// dataIs checks the ConfigMap's data, every key and its content, or that it is gone when want is
// nil: a key someone else wrote must keep its content, not only its name.
func dataIs(t *testing.T, ns, name string, want map[string]string) func(*terraform.State) error {
	return func(*terraform.State) error {
		cm, err := acctest.Dynamic(t).Resource(kube.ConfigMapKind.GVR).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
		if want == nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("ConfigMap %s/%s: want it gone, got err %w", ns, name, err)
		}
		if err != nil {
			return err
		}
		data, _, err := unstructured.NestedStringMap(cm.Object, "data")
		if err != nil {
			return err
		}
		if !maps.Equal(data, want) {
			return fmt.Errorf("ConfigMap %s/%s data:\n%s\nwant:\n%s", ns, name, showData(data), showData(want))
		}
		return nil
	}
}

// showData lists data's keys in order, each with its content quoted.
func showData(data map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(data)) {
		fmt.Fprintf(&b, "  %s: %q\n", k, data[k])
	}
	return b.String()
}

// Another tool's ConfigMap (the GPU Operator's chart) gets the resource's key; the tool's key is
// never touched, and destroy removes only the resource's key and leaves the ConfigMap.
func TestAccSharedConfigMap_keysOfAnotherToolsConfigMap(t *testing.T) {
	ns, name := acctest.Name("acc-shared"), "device-plugin-config"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Namespace(t, ns)
			acctest.ApplyAs(t, "helm", kube.ConfigMapKind, ns, map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": name, "namespace": ns},
				"data":     map[string]any{"default": pluginDefault},
			})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             dataIs(t, ns, name, map[string]string{"default": pluginDefault}),
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + sharedTS("a", ns, name, "a100"),
				Check:  dataIs(t, ns, name, map[string]string{"a100": timeSliced(2), "default": pluginDefault}),
			},
			{
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + sharedTS("a", ns, name, "a100", "l4"),
				Check:  dataIs(t, ns, name, map[string]string{"a100": timeSliced(2), "default": pluginDefault, "l4": timeSliced(2)}),
			},
			{
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + sharedTS("a", ns, name, "l4"),
				Check:  dataIs(t, ns, name, map[string]string{"default": pluginDefault, "l4": timeSliced(2)}),
			},
			{
				// A key the other tool wrote is never taken over.
				Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + sharedTS("a", ns, name, "l4", "default"),
				ExpectError: regexp.MustCompile(`Key "default" of ConfigMap ` + regexp.QuoteMeta(ns+"/"+name) +
					` was written\s+by\s+field\s+manager\s+helm,\s+not\s+by\s+this\s+resource`),
			},
		},
	})
}

// Two resources share a ConfigMap: each apply and destroy touches only its own keys. The one that
// created the ConfigMap deletes it when it goes last and nothing else is left.
func TestAccSharedConfigMap_twoResourcesShareOne(t *testing.T) {
	ns, name := acctest.Name("acc-two"), "time-slicing"
	a := func(keys ...string) string { return sharedTS("a", ns, name, keys...) }
	b := func(keys ...string) string {
		return strings.Replace(sharedTS("b", ns, name, keys...), "configs", "depends_on = [mlplatform_time_slicing_config.a]\n  configs", 1)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             dataIs(t, ns, name, nil), // b goes first, then a, which created it
		Steps: []resource.TestStep{
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + a("a100") + b("l4"), Check: dataIs(t, ns, name, slicedKeys("a100", "l4"))},
			// One resource's update never removes the other's keys.
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + a("a100", "h100") + b("t4"), Check: dataIs(t, ns, name, slicedKeys("a100", "h100", "t4"))},
			// Destroying one leaves the other's keys and the ConfigMap.
			{Config: acctest.ProviderBlock("", acctest.CostCentreDefault) + a("a100", "h100"), Check: dataIs(t, ns, name, slicedKeys("a100", "h100"))},
		},
	})
}

// Two resources declaring one key are refused at plan, naming both, with no API call.
func TestSharedConfigMap_sameKeyTwiceFailsAtPlan(t *testing.T) {
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:   acctest.ProviderBlock(host, acctest.CostCentreDefault) + sharedTS("a", "gpu-operator", "ts", "a100", "l4") + sharedTS("b", "gpu-operator", "ts", "a100"),
			PlanOnly: true,
			ExpectError: regexp.MustCompile(`Key "a100" of ConfigMap gpu-operator/ts is declared by two resources:\s+mlplatform_time_slicing_config\s+"gpu-operator/ts"\s+declaring\s+keys\s+(a100, l4|a100)\s+and\s+` +
				`mlplatform_time_slicing_config\s+"gpu-operator/ts"\s+declaring\s+keys\s+(a100, l4|a100)\.`),
		}}
	})
}
