// Package testcluster runs a local Kubernetes control plane (etcd and kube-apiserver, started by
// controller-runtime's envtest) with the upstream CRDs of the Kueue, Karpenter and Argo versions
// pinned in go.mod, and optionally Kueue's and Argo's real controllers, and nodes: kube-scheduler,
// KWOK and Karpenter with its KWOK cloud provider. Acceptance tests and `make demo` use it when no
// KUBECONFIG is given.
package testcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// NoClusterEnv set to "none" asks a test run for no cluster at all (`make test-quick`): tests
// that need one skip, and no control plane starts.
const NoClusterEnv = "MLPLATFORM_TEST_CLUSTER"

// Cluster is a running local control plane.
type Cluster struct {
	env         *envtest.Environment
	controllers *controllerManager
	kueue       *kueueManager
	argo        *argoController
	scheduler   *process
	kwok        *process
	executor    *argoExecutor
	karpenter   *process
	// karpenterStarts counts StartKarpenter's runs, which name their logs.
	karpenterStarts int
	dir             string
	// apiServerStopped is true between StopAPIServer and StartAPIServer.
	apiServerStopped bool
	// Config is an admin (system:masters) client configuration.
	Config *rest.Config
	// Kubeconfig is the path of a kubeconfig file for Config.
	Kubeconfig string
	// AuditLog is the apiserver's audit log: the writes of AuditedNamespace's service accounts.
	AuditLog string
}

// Option adds to what Start runs.
type Option func(*options)

type options struct {
	controllers, kueue, argo, nodes bool
	// multiKueue, when set, makes Kueue a MultiKueue manager (WithMultiKueue).
	multiKueue *MultiKueue
}

// WithControllers also runs kube-controller-manager's namespace and garbage-collector controllers,
// so that a deleted namespace goes away with what is in it. Its output goes to controllers.log in dir.
func WithControllers() Option { return func(o *options) { o.controllers = true } }

// WithKueue also runs Kueue's controller manager, with its admission webhooks installed and served
// locally, and waits until it answers. Its output goes to kueue.log in dir. Kueue manages pods
// (its "pod" integration) in namespaces labelled ManagedNamespaceLabel=true.
func WithKueue() Option { return func(o *options) { o.kueue = true } }

// WithArgo also runs Argo Workflows' workflow controller for every namespace, and waits until it
// reconciles Workflows: v3's, or the one ArgoControllerEnv names, with that release's CRDs
// installed. Its output goes to argo.log in dir. Without WithNodes no node runs: the pods it
// creates stay Pending.
func WithArgo() Option { return func(o *options) { o.argo = true } }

// WithNodes also runs what puts pods on nodes and runs them: kube-scheduler (the apiserver's
// release), KWOK's controller, which plays the nodes that Karpenter makes (StartKarpenter) and the
// lives of the pods bound to them (its stages, and the project's in kwok_stages.yaml), and, with
// WithArgo, the stand-in for Argo's executor (argo_executor.go). It installs the KWOKNodeClass CRD
// and implies WithControllers, whose pod garbage collector removes the pods of a deleted node.
// Their output goes to scheduler.log and kwok.log in dir.
func WithNodes() Option { return func(o *options) { o.nodes, o.controllers = true, true } }

// For etcd and the apiserver, envtest sets both components' timeouts from these (20s unless
// set), whatever they say themselves: a busy 2-core machine needs more, and an apiserver that does
// not stop in time is left running. crdServedTimeout bounds the wait for the CRDs to be served,
// where envtest's default of 10s is too short too.
const (
	controlPlaneStartTimeout = 2 * time.Minute
	controlPlaneStopTimeout  = time.Minute
	crdServedTimeout         = 2 * time.Minute
)

// Start builds the control plane's binaries if they are not cached yet, starts them on a copy of
// the etcd seed that holds the CRDs (etcd_seed.go; made first if there is none) and writes an
// admin kubeconfig into dir.
func Start(dir string, opts ...Option) (*Cluster, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	// envtest logs through controller-runtime, which prints a stack trace when no logger is set.
	ctrllog.SetLogger(logr.Discard())
	// Built before anything starts: the first build takes minutes.
	var controllersBin, kueueBin, argoBin, schedulerBin, kwokBin string
	argo := argoV3
	if o.controllers {
		var err error
		if controllersBin, err = Tool("kube-controller-manager"); err != nil {
			return nil, err
		}
	}
	if o.kueue {
		var err error
		if kueueBin, err = pinnedTool("kueue", kueueModule); err != nil {
			return nil, err
		}
	}
	if o.argo {
		var err error
		if argo, err = argoFromEnv(); err != nil {
			return nil, err
		}
		if argoBin, err = argo.binary(); err != nil {
			return nil, err
		}
	}
	if o.nodes {
		var err error
		if schedulerBin, err = Tool("kube-scheduler"); err != nil {
			return nil, err
		}
		if kwokBin, err = Tool("kwok"); err != nil {
			return nil, err
		}
	}
	apiserver, err := Tool("kube-apiserver")
	if err != nil {
		return nil, err
	}
	etcd, err := Tool("etcd")
	if err != nil {
		return nil, err
	}
	crdDirs, err := crdDirectories(argo)
	if err != nil {
		return nil, err
	}
	if o.nodes {
		kwokCRDs, err := kwokNodeClassCRDs()
		if err != nil {
			return nil, err
		}
		crdDirs = append(crdDirs, kwokCRDs)
	}
	// A certificate directory of its own (not one envtest makes and forgets on stop) keeps the
	// serving and service-account keys, so RestartAPIServer starts an apiserver that every client
	// and token still trusts.
	certDir := filepath.Join(dir, "apiserver")
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		return nil, err
	}
	crds := envtest.CRDInstallOptions{Paths: crdDirs, CRDs: karpenterCRDs(), ErrorIfPathMissing: true,
		MaxTime: crdServedTimeout, PollInterval: 100 * time.Millisecond}
	if err := envtest.ReadCRDFiles(&crds); err != nil {
		return nil, err
	}
	seed, err := etcdSeed(apiserver, etcd, crds.CRDs)
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Join(dir, "etcd")
	if err := copySeed(seed, dataDir); err != nil {
		return nil, fmt.Errorf("copying the etcd seed %s: %w", seed, err)
	}
	apiServer := &envtest.APIServer{Path: apiserver, CertDir: certDir}
	// On SIGTERM the apiserver waits up to its request timeout (1m) for open watches to end, and
	// clients it does not stop (Kueue's, a MultiKueue manager's on a worker) hold some open: this
	// answers requests in flight, then stops within 2s.
	apiServer.Configure().Set("shutdown-send-retry-after", "true")
	auditLog, err := configureAudit(apiServer, dir)
	if err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		ControlPlane: envtest.ControlPlane{
			APIServer: apiServer,
			Etcd:      &envtest.Etcd{Path: etcd, DataDir: dataDir},
		},
		ControlPlaneStartTimeout: controlPlaneStartTimeout,
		ControlPlaneStopTimeout:  controlPlaneStopTimeout,
	}
	cfg, err := env.Start()
	if err == nil {
		// The seed's CRDs are stored; the apiserver serves them once it has read them.
		err = envtest.WaitForCRDs(cfg, crds.CRDs, crds)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("starting the local control plane: %w", err), env.Stop())
	}
	c := &Cluster{env: env, dir: dir, AuditLog: auditLog}
	admin, err := env.AddUser(envtest.User{Name: "mlplatform-admin", Groups: []string{"system:masters"}}, nil)
	if err == nil {
		c.Config = admin.Config()
		var kubeconfig []byte
		if kubeconfig, err = admin.KubeConfig(); err == nil {
			c.Kubeconfig = filepath.Join(dir, "kubeconfig")
			err = os.WriteFile(c.Kubeconfig, kubeconfig, 0o600)
		}
	}
	if err != nil {
		_ = env.Stop()
		return nil, fmt.Errorf("writing the local control plane's kubeconfig: %w", err)
	}
	if o.controllers {
		if c.controllers, err = startControllers(controllersBin, dir, c, o.nodes); err != nil {
			_ = env.Stop()
			return nil, err
		}
	}
	if o.multiKueue != nil {
		if err := createKueueNamespace(c); err != nil {
			_ = c.Stop()
			return nil, err
		}
	}
	if o.kueue {
		if c.kueue, err = startKueue(kueueBin, dir, c, o.multiKueue); err != nil {
			_ = c.Stop()
			return nil, err
		}
	}
	// After Kueue: the pods Argo creates must meet Kueue's webhooks from the first one on.
	if o.argo {
		if c.argo, err = startArgo(argo, argoBin, dir, c); err != nil {
			_ = c.Stop()
			return nil, err
		}
	}
	if o.nodes {
		if err := c.startNodes(schedulerBin, kwokBin, o.argo); err != nil {
			_ = c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// startNodes starts kube-scheduler, KWOK and, for Argo, the executor stand-in.
func (c *Cluster) startNodes(schedulerBin, kwokBin string, argo bool) error {
	var err error
	if c.scheduler, err = startScheduler(schedulerBin, c.dir, c); err != nil {
		return err
	}
	if c.kwok, err = startKWOK(kwokBin, c.dir, c); err != nil {
		return err
	}
	if argo {
		c.executor, err = startArgoExecutor(c)
	}
	return err
}

// Stop stops Karpenter, KWOK, the scheduler, Argo, Kueue and the controller manager if they run,
// then the control plane, and removes their data.
func (c *Cluster) Stop() error {
	errs := []error{c.StopKarpenter()}
	if c.executor != nil {
		c.executor.stop()
	}
	for _, p := range []*process{c.kwok, c.scheduler} {
		if p != nil {
			errs = append(errs, p.stop())
		}
	}
	if c.argo != nil {
		errs = append(errs, c.argo.stop())
	}
	if c.kueue != nil {
		errs = append(errs, c.kueue.stop())
	}
	if c.controllers != nil {
		errs = append(errs, c.controllers.stop())
	}
	return errors.Join(append(errs, c.env.Stop())...)
}

// Tool returns the path of a cached tool, building it on first use (see tools/build.sh).
func Tool(name string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(root, "internal/testcluster/tools/build.sh"), "path", name)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("building %s with internal/testcluster/tools/build.sh: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// repoRoot is the directory of the provider's go.mod, found from the working directory (a test
// runs in its package's directory).
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the repository root (go env GOMOD): %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("finding the repository root: run from inside the repository (go env GOMOD is %q)", gomod)
	}
	return filepath.Dir(gomod), nil
}
