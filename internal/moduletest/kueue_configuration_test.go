package moduletest

import (
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// checkKueueConfiguration checks that the module's kueue_configuration (for examples/complete,
// the module's default Kueue inputs) is, as data, the platform part of the configuration the local
// control plane's Kueue manager runs with: every test on a Kueue manager then proves it, and the
// manager's start (Kueue's own loader, strict decoding and validation) accepts it.
func checkKueueConfiguration(t *testing.T, rendered string) {
	t.Helper()
	var got, want map[string]any
	if err := yaml.Unmarshal([]byte(rendered), &got); err != nil {
		t.Fatalf("kueue_configuration is not YAML: %v\n%s", err, rendered)
	}
	if err := yaml.Unmarshal(testcluster.KueuePlatformConfiguration, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kueue_configuration differs from internal/testcluster/kueue_platform.yaml, which the tests' Kueue runs with: "+
			"update the file with it.\nkueue_configuration:\n%s\nkueue_platform.yaml:\n%s", rendered, testcluster.KueuePlatformConfiguration)
	}
}
