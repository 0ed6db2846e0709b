package testcluster

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// KueueNamespace is the namespace of the local Kueue manager (its configuration's namespace, Kueue's
// default): a MultiKueueCluster's kubeconfig Secret must be there, under the key "kubeconfig".
const KueueNamespace = "kueue-system"

// MultiKueue is the manager cluster's MultiKueue configuration (Kueue's Configuration.multiKueue).
// A zero duration leaves Kueue's default.
type MultiKueue struct {
	// WorkerLostTimeout is how long a workload admitted on a worker that cannot be reached stays
	// admitted before it is dispatched again (Kueue's default: 15m).
	WorkerLostTimeout time.Duration
	// GCInterval is how often the manager deletes the objects it made on the workers whose
	// manager-side counterpart is gone (Kueue's default: 1m).
	GCInterval time.Duration
}

// WithMultiKueue runs Kueue (it implies WithKueue) as a MultiKueue manager with m, and creates
// KueueNamespace for the workers' kubeconfig Secrets. MultiKueue itself (feature gate, admission
// check controller) is on in every Kueue manager; this only sets its timings.
func WithMultiKueue(m MultiKueue) Option {
	return func(o *options) { o.kueue, o.multiKueue = true, &m }
}

// config is m as Kueue's configuration field multiKueue.
func (m MultiKueue) config() map[string]any {
	cfg := map[string]any{}
	if m.WorkerLostTimeout > 0 {
		cfg["workerLostTimeout"] = m.WorkerLostTimeout.String()
	}
	if m.GCInterval > 0 {
		cfg["gcInterval"] = m.GCInterval.String()
	}
	return cfg
}

// multiKueueUser is the identity a MultiKueue manager's Kueue has on this cluster as a worker.
const multiKueueUser = "multikueue-manager"

// MultiKueueKubeconfig is a kubeconfig for this cluster, as a MultiKueue worker, in the form
// Kueue's manager accepts in a MultiKueueCluster's Secret: server https://127.0.0.1:<port>, the
// CA as certificate-authority-data and a client certificate and key as data (no file paths, no
// token file, TLS verified). Its user, multikueue-manager, is in system:masters. It stays valid
// across StopAPIServer and StartAPIServer.
func (c *Cluster) MultiKueueKubeconfig() ([]byte, error) {
	u, err := c.env.AddUser(envtest.User{Name: multiKueueUser, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("adding the user %s: %w", multiKueueUser, err)
	}
	return u.KubeConfig()
}

// createKueueNamespace creates KueueNamespace unless it exists.
func createKueueNamespace(c *Cluster) error {
	client, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: KueueNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", KueueNamespace, err)
	}
	return nil
}
