package testcluster

import (
	"context"
	_ "embed" // the platform's Kueue configuration
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

const kueueModule = "sigs.k8s.io/kueue"

// ManagedNamespaceLabel, set to "true" on a namespace, has Kueue manage the Jobs and pods created
// there with a kueue.x-k8s.io/queue-name label (pods e.g. by Argo: Kueue's pod webhook gates them
// until their Workload is admitted). Kueue's managedJobsNamespaceSelector selects it, and since
// Kueue 0.15 (feature gate ManagedJobsNamespaceSelectorAlwaysRespected, on by default) Jobs in
// other namespaces are left alone too, queue-name label or not. It is the project's own key: Kueue
// itself puts kueue.x-k8s.io/managed=true on the pods it manages.
const ManagedNamespaceLabel = "mlplatform.io/kueue-managed"

// kueueStartTimeout bounds the manager's start, generous for a busy 2-core machine.
const kueueStartTimeout = 3 * time.Minute

// kueueManager is a running Kueue controller manager (sigs.k8s.io/kueue cmd/kueue).
type kueueManager struct {
	*process
	webhooks envtest.WebhookInstallOptions
}

// startKueue installs Kueue's webhook configurations pointed at a local serving address and runs
// the manager there against c, logging to kueue.log in dir; mk, if not nil, is its MultiKueue
// configuration.
func startKueue(bin, dir string, c *Cluster, mk *MultiKueue) (*kueueManager, error) {
	root, _, err := moduleDir(kueueModule)
	if err != nil {
		return nil, err
	}
	certs, err := writeKueueMetricsCerts(dir)
	if err != nil {
		return nil, err
	}
	etc := filepath.Join(dir, "kueue-etc")
	if err := os.Mkdir(etc, 0o700); err != nil {
		return nil, fmt.Errorf("starting Kueue: %w", err)
	}
	k := &kueueManager{webhooks: envtest.WebhookInstallOptions{
		Paths:            []string{filepath.Join(root, "config/components/webhook/manifests.yaml")},
		LocalServingHost: "127.0.0.1",
		MaxTime:          time.Minute,
	}}
	// Serving certificate and port now; the configurations are installed once the server answers,
	// so that no request meets a webhook that is not there yet.
	if err := k.webhooks.PrepWithoutInstalling(); err != nil {
		return nil, fmt.Errorf("preparing Kueue's webhooks: %w", err)
	}
	health, err := freePort()
	var config []byte
	if err == nil {
		config, err = kueueConfig(k.webhooks, health, mk)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "kueue-config.yaml"), config, 0o600)
	}
	var cmd *exec.Cmd
	if err == nil {
		cmd, err = kueueCommand(bin, []string{"--config=" + filepath.Join(dir, "kueue-config.yaml")}, etc, certs)
	}
	if err != nil {
		_ = k.webhooks.Cleanup()
		return nil, fmt.Errorf("starting Kueue: %w", err)
	}
	cmd.Env = append(os.Environ(), "KUBECONFIG="+c.Kubeconfig)
	k.process, err = startProcess("Kueue's controller manager", cmd, filepath.Join(dir, "kueue.log"), func(p *process) error {
		k.process = p
		return k.waitReady(c, health)
	})
	if err != nil {
		_ = k.webhooks.Cleanup()
		return nil, fmt.Errorf("%w; %s", err, mountNamespaceHint)
	}
	return k, nil
}

// KueuePlatformConfiguration is the platform's part of the local manager's Kueue configuration:
// the ml-platform module's kueue_configuration for its default inputs.
//
//go:embed kueue_platform.yaml
var KueuePlatformConfiguration []byte

// kueueConfig is KueuePlatformConfiguration plus what one manager outside a cluster needs: no leader
// election, no certificate management (it issues certificates for the in-cluster Service name, the
// apiserver here calls 127.0.0.1), the webhook server and health probe on local ports, no metrics
// server, and the feature gates the tests need (in the file, since Kueue refuses gates given both as
// flags and in the configuration). The pod webhooks in manifests.yaml have no namespaceSelector (a
// release install adds one excluding kube-system and kueue-system): every pod creation goes through
// Kueue's webhook, which leaves pods alone outside the selected namespaces or without a queue-name
// label. mk, if not nil, is the MultiKueue configuration of a manager cluster.
func kueueConfig(w envtest.WebhookInstallOptions, healthPort int, mk *MultiKueue) ([]byte, error) {
	var cfg map[string]any
	if err := yaml.Unmarshal(KueuePlatformConfiguration, &cfg); err != nil {
		return nil, fmt.Errorf("kueue_platform.yaml: %w", err)
	}
	cfg["leaderElection"] = map[string]any{"leaderElect": false}
	cfg["internalCertManagement"] = map[string]any{"enable": false}
	cfg["webhook"] = map[string]any{"host": w.LocalServingHost, "port": w.LocalServingPort, "certDir": w.LocalServingCertDir}
	cfg["health"] = map[string]any{"healthProbeBindAddress": fmt.Sprintf("127.0.0.1:%d", healthPort)}
	metrics, _ := cfg["metrics"].(map[string]any)
	if metrics == nil {
		metrics = map[string]any{}
	}
	metrics["bindAddress"] = "0"
	cfg["metrics"] = metrics
	gates, _ := cfg["featureGates"].(map[string]any)
	if gates == nil {
		gates = map[string]any{}
	}
	// VisibilityOnDemand on serves the visibility API with certificates it expects under
	// /visibility. ConcurrentAdmission (alpha) on, as the provider's plan-time webhook has it.
	gates["VisibilityOnDemand"], gates["ConcurrentAdmission"] = false, true
	cfg["featureGates"] = gates
	if mk != nil {
		cfg["namespace"], cfg["multiKueue"] = KueueNamespace, mk.config()
	}
	return yaml.Marshal(cfg)
}

// waitReady waits until the manager reports ready, then installs the webhook configurations and
// waits until a dry-run create passes through them (their failure policy is Fail).
func (k *kueueManager) waitReady(c *Cluster, healthPort int) error {
	if err := k.waitHealthy(fmt.Sprintf("http://127.0.0.1:%d/readyz", healthPort), kueueStartTimeout); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), kueueStartTimeout)
	defer cancel()
	if err := k.webhooks.Install(c.Config); err != nil {
		return fmt.Errorf("installing its webhook configurations: %w", err)
	}
	client, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		return err
	}
	flavors := client.Resource(schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "resourceflavors"})
	probe := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
		"metadata": map[string]any{"name": "testcluster-webhook-probe"},
	}}
	return k.poll(ctx, "answering its webhooks", kueueStartTimeout, func() error {
		_, err := flavors.Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	})
}

// stop ends the manager and removes its serving certificate.
func (k *kueueManager) stop() error {
	return errors.Join(k.process.stop(), k.webhooks.Cleanup())
}

// freePort is a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail is the last n lines of a file.
func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
