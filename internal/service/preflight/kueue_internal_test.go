package preflight

import (
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// Kueue's defaults count on both sides: a live configuration without managedJobsNamespaceSelector
// selects every namespace but kube-system and Kueue's own, the teams' among them; a gate on by
// default in Kueue v0.19 need not be set; one off by default must be.
func TestCompareKueue_defaults(t *testing.T) {
	want, err := parseKueueConfiguration(string(testcluster.KueuePlatformConfiguration)+"  TopologyAwareScheduling: true\n", true)
	if err != nil {
		t.Fatal(err)
	}
	live, err := parseKueueConfiguration(`
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
integrations:
  frameworks: ["batch/job", "pod"]
  labelKeysToCopy: ["workflows.argoproj.io/workflow"]
metrics:
  enableClusterQueueResources: true
  customLabels:
  - {name: team, sourceLabelKey: mlplatform.io/team}
  - {name: cost_centre, sourceLabelKey: mlplatform.io/cost-centre, sourceKind: ClusterQueue}
`, false)
	if err != nil {
		t.Fatal(err)
	}
	got := compareKueue(want, live, nil, nil)
	if len(got) != 1 || got[0].Setting != "featureGates.CustomMetricLabels" {
		t.Errorf("findings %+v; want only featureGates.CustomMetricLabels (TopologyAwareScheduling is on by default)", got)
	}
	// A team namespace the live selector leaves out is named.
	if _, ok := compareNamespaceSelector(want.ManagedJobsNamespaceSelector, live.ManagedJobsNamespaceSelector,
		[]map[string]string{{"kubernetes.io/metadata.name": "kube-system", "mlplatform.io/kueue-managed": "true"}}); ok {
		t.Error("the default selector selects kube-system; want a finding")
	}
}

// The wanted configuration is decoded strictly, as Kueue decodes its own: a typo is refused.
func TestParseKueueConfiguration_strict(t *testing.T) {
	if _, err := parseKueueConfiguration("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nintegration: {}\n", true); err == nil {
		t.Error("a misspelled field was accepted")
	}
}
