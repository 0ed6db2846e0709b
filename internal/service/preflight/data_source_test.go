package preflight_test

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// What the ml-platform module wants for a platform with MIG pools (mixed strategy) and a
// time-sliced pool: its outputs kueue_configuration (testcluster's copy, checked equal to the
// module's), karpenter_values and gpu_operator_values.
var (
	wantKueue     = string(testcluster.KueuePlatformConfiguration)
	wantKarpenter = "settings:\n  featureGates:\n    nodeOverlay: true\n"
	wantGPU       = `
mig:
  strategy: mixed
migManager:
  config:
    name: default-mig-parted-config
    default: all-disabled
devicePlugin:
  config:
    name: mlplatform-device-plugin-config
    default: whole-gpus
dcgmExporter:
  enabled: true
`
)

// The cluster runs every controller as the platform needs: no finding. The live configurations are
// what the charts render, not copies of the wanted ones: Kueue's with the chart's
// internalCertManagement, and a ClusterPolicy whose empty migManager.config.name is the operator's
// default-mig-parted-config.
func TestAccPreflight_matching(t *testing.T) {
	acctest.PreCheck(t)
	c := newCluster(t, "pf-match")
	c.kueueRelease(t, wantKueue+"internalCertManagement:\n  enable: true\n  webhookServiceName: kueue-webhook-service\n  webhookSecretName: kueue-webhook-server-cert\n", "")
	c.karpenterRelease(t, true)
	c.gpuOperatorRelease(t, `
mig: {strategy: mixed}
migManager: {enabled: true, config: {name: "", default: all-disabled}}
devicePlugin: {enabled: true, config: {name: mlplatform-device-plugin-config, default: whole-gpus}}
dcgmExporter: {enabled: true}
`, "true", true)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: c.config("", wantKueue, wantKarpenter, wantGPU),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("data.mlplatform_preflight.this", "checked", "true"),
				checkFindings(nil),
			),
		}},
	})
}

// Each kind of mismatch is a finding naming the setting and the fix.
func TestAccPreflight_mismatches(t *testing.T) {
	acctest.PreCheck(t)
	c := newCluster(t, "pf-diff")
	c.kueueRelease(t, `
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
integrations:
  frameworks: ["batch/job"]
managedJobsNamespaceSelector:
  matchLabels: {kueue.x-k8s.io/managed: "true"}
fairSharing:
  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]
waitForPodsReady:
  timeout: 5m
metrics:
  customLabels:
  - name: team
    sourceLabelKey: mlplatform.io/team
`, "")
	c.karpenterRelease(t, false)
	c.gpuOperatorRelease(t, `
mig: {strategy: single}
migManager: {enabled: true, config: {name: custom-mig-parted-config, default: all-disabled}}
devicePlugin: {enabled: true}
dcgmExporter: {enabled: true, config: {name: custom-dcgm-metrics}}
`, "false", false)
	c.configMap(t, c.gpuOperator, "custom-dcgm-metrics", "dcgm-metrics.csv",
		"# Format\nDCGM_FI_DEV_GPU_UTIL, gauge, GPU utilization (in %).\nDCGM_FI_DEV_FB_USED, gauge, Framebuffer memory used (in MiB).\n")
	kueue := "managerConfig.controllerManagerConfigYaml: "
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: c.config("", wantKueue, wantKarpenter, wantGPU),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("data.mlplatform_preflight.this", "checked", "true"),
				checkFindings([]wantFinding{
					{"kueue", "integrations.frameworks", kueue + "integrations.frameworks must include pod"},
					{"kueue", "integrations.labelKeysToCopy", kueue + "integrations.labelKeysToCopy must include workflows.argoproj.io/workflow"},
					{"kueue", "managedJobsNamespaceSelector", kueue + "managedJobsNamespaceSelector must select the teams' namespaces, e.g. be mlplatform.io/kueue-managed=true"},
					{"kueue", "fairSharing", kueue + "fairSharing must be removed, or the module's fair_sharing set to true"},
					{"kueue", "metrics.enableClusterQueueResources", kueue + "metrics.enableClusterQueueResources must be true"},
					{"kueue", "metrics.customLabels", kueue + "metrics.customLabels must include {name: cost_centre, sourceLabelKey: mlplatform.io/cost-centre}"},
					{"kueue", "waitForPodsReady.timeout", kueue + "waitForPodsReady.timeout must be at least 30m0s"},
					{"kueue", "waitForPodsReady.recoveryTimeout", kueue + "waitForPodsReady.recoveryTimeout must be at least 30m0s"},
					{"kueue", "featureGates.CustomMetricLabels", kueue + "featureGates.CustomMetricLabels must be true"},
					{"karpenter", "settings.featureGates.nodeOverlay", "settings.featureGates.nodeOverlay must be true"},
					{"gpu-operator", "mig.strategy", "mig.strategy must be mixed"},
					{"gpu-operator", "migManager.config.name", "migManager.config.name must be default-mig-parted-config"},
					{"gpu-operator", "devicePlugin.config.name", "devicePlugin.config.name must be mlplatform-device-plugin-config"},
					{"gpu-operator", "devicePlugin.config.default", "devicePlugin.config.default must be whole-gpus"},
					{"dcgm-exporter", "env DCGM_EXPORTER_KUBERNETES", "dcgmExporter.env: DCGM_EXPORTER_KUBERNETES must be true"},
					{"dcgm-exporter", "Service " + c.gpuOperator + "/nvidia-dcgm-exporter", "Prometheus scrapes dcgm-exporter through this Service"},
					{"dcgm-exporter", "ConfigMap " + c.gpuOperator + "/custom-dcgm-metrics dcgm-metrics.csv",
						"must list DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_DEV_FB_FREE, DCGM_FI_DEV_GPU_TEMP, DCGM_FI_DEV_XID_ERRORS"},
				}),
			),
		}},
	})
}

// Kueue's gates given as the manager's flags (the chart's controllerManager.featureGates) count:
// CustomMetricLabels on there is no finding; its configuration carries none.
func TestAccPreflight_kueueGatesAsFlags(t *testing.T) {
	acctest.PreCheck(t)
	c := newCluster(t, "pf-flags")
	live := strings.Replace(wantKueue, "featureGates:\n  CustomMetricLabels: true\n", "", 1)
	if live == wantKueue {
		t.Fatal("kueue_platform.yaml no longer sets featureGates.CustomMetricLabels: update the test")
	}
	c.kueueRelease(t, live, "CustomMetricLabels=true")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "mlplatform_preflight" "this" {
  kueue = {
    configuration = %s
    namespace     = %q
  }
}
`, heredoc(wantKueue), c.kueue),
			Check: checkFindings(nil),
		}},
	})
}

// A cluster without the controllers: each component not found is a finding, not an error.
func TestAccPreflight_notInstalled(t *testing.T) {
	acctest.PreCheck(t)
	c := newCluster(t, "pf-none")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config: c.config("", wantKueue, wantKarpenter, wantGPU),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("data.mlplatform_preflight.this", "checked", "true"),
				checkFindings([]wantFinding{
					{"kueue", "ConfigMap " + c.kueue + "/kueue-manager-config", "install Kueue with its Helm chart"},
					{"karpenter", "Deployment " + c.karpenter + "/karpenter", "install Karpenter with its Helm chart"},
					{"gpu-operator", "ClusterPolicy " + c.clusterPolicy, "install the NVIDIA GPU Operator with its Helm chart"},
				}),
			),
		}},
	})
}

// No cluster to read (an API server answering 503, a refused connection, credentials the cluster
// refuses): the plan succeeds with a warning, checked false and no finding.
func TestAccPreflight_noCluster(t *testing.T) {
	acctest.PreCheck(t)
	unavailable, _ := acctest.UnreachableCluster(t)
	refused := closedPort(t)
	forbidden := acctest.TokenKubeconfig(t, acctest.ServiceAccountToken(t, acctest.Name("pf-nobody")))
	c := cluster{kueue: "kueue-system", karpenter: "karpenter", gpuOperator: "gpu-operator", clusterPolicy: "cluster-policy"}
	for _, tc := range []struct{ name, provider, warning string }{
		{"unavailable", fmt.Sprintf("host = %q", unavailable), "Preflight not run: no cluster to check"},
		{"connection refused", fmt.Sprintf("host = %q", refused), "Preflight not run: no cluster to check"},
		{"forbidden", fmt.Sprintf("config_path = %q", forbidden), "Preflight incomplete: a read was refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config := "terraform {\n  required_providers {\n    mlplatform = { source = \"mlplatform/mlplatform\" }\n  }\n}\n" +
				c.config(tc.provider, wantKueue, wantKarpenter, wantGPU)
			w := acctest.NewWorkspace(t, config, "KUBE_CONFIG_PATHS=")
			out := w.Must(t, "plan")
			for _, want := range []string{tc.warning, "checked  = false", "findings = 0"} {
				if !strings.Contains(out, want) {
					t.Errorf("plan output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// closedPort is an address where nothing listens: connections are refused.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "https://" + addr
}

type wantFinding struct{ component, setting, fix string }

// checkFindings checks that the findings are exactly want, by component and setting, each fix
// containing want's.
func checkFindings(want []wantFinding) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources["data.mlplatform_preflight.this"].Primary.Attributes
		var got []wantFinding
		for i := 0; ; i++ {
			p := fmt.Sprintf("findings.%d.", i)
			if _, ok := attrs[p+"component"]; !ok {
				break
			}
			got = append(got, wantFinding{attrs[p+"component"], attrs[p+"setting"], attrs[p+"fix"]})
		}
		var errs []string
		for _, w := range want {
			i := slices.IndexFunc(got, func(g wantFinding) bool { return g.component == w.component && g.setting == w.setting })
			switch {
			case i < 0:
				errs = append(errs, fmt.Sprintf("no finding for %s %s", w.component, w.setting))
			case !strings.Contains(got[i].fix, w.fix):
				errs = append(errs, fmt.Sprintf("finding %s %s: fix %q lacks %q", w.component, w.setting, got[i].fix, w.fix))
			}
		}
		for _, g := range got {
			if !slices.ContainsFunc(want, func(w wantFinding) bool { return g.component == w.component && g.setting == w.setting }) {
				errs = append(errs, fmt.Sprintf("unexpected finding %s %s: %s", g.component, g.setting, g.fix))
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("findings:\n%s", strings.Join(errs, "\n"))
		}
		return nil
	}
}
