// Package kube is the provider's one way to talk to a cluster: a lazily built client, server-side
// apply (conditional, under a field manager the caller names), get, delete-and-wait, and a
// discovery check that turns a missing API into an install hint. Its only Terraform import is
// tflog, to log each API call.
package kube

import (
	"fmt"
	"sync"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
)

// DefaultFieldManager is the server-side apply field manager unless the provider sets another.
const DefaultFieldManager = "mlplatform"

// Client is shared by every resource of one provider instance. Nothing contacts the cluster until
// the first read or write, so a plan that only creates objects works without a reachable cluster.
type Client struct {
	fieldManager string
	loadConfig   func() (*rest.Config, error)

	once      sync.Once
	initErr   error
	dynamic   dynamic.Interface
	metadata  metadata.Interface // lists objects' metadata without their bodies
	discovery discovery.CachedDiscoveryInterface
	// direct asks the server every time: a 404 is taken for "gone" only after it confirms that the
	// API is still served, which a cache cannot.
	direct discovery.DiscoveryInterface
	served sync.Map // schema.GroupVersionResource -> struct{}: found once, never asked again
}

// NewClient returns a client that calls loadConfig on first use.
func NewClient(loadConfig func() (*rest.Config, error), fieldManager string) *Client {
	if fieldManager == "" {
		fieldManager = DefaultFieldManager
	}
	return &Client{fieldManager: fieldManager, loadConfig: loadConfig}
}

// FieldManager is the name under which this client's server-side applies own fields.
func (c *Client) FieldManager() string { return c.fieldManager }

func (c *Client) connect() error {
	c.once.Do(func() {
		cfg, err := c.loadConfig()
		if err != nil {
			c.initErr = fmt.Errorf("loading the Kubernetes client configuration: %w", err)
			return
		}
		cfg = rest.CopyConfig(cfg)
		cfg.UserAgent = "terraform-provider-mlplatform"
		cfg.Wrap(logRequests)
		// Outside the logging, so that each attempt is logged.
		cfg.Wrap(retrying)
		// Terraform refreshes and applies many objects in parallel; client-go's default of 5 QPS
		// would serialise them behind its rate limiter.
		cfg.QPS, cfg.Burst = 100, 200
		if c.dynamic, c.initErr = dynamic.NewForConfig(cfg); c.initErr != nil {
			return
		}
		if c.metadata, c.initErr = metadata.NewForConfig(cfg); c.initErr != nil {
			return
		}
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		if err != nil {
			c.initErr = err
			return
		}
		c.direct = dc
		c.discovery = memory.NewMemCacheClient(dc)
	})
	return c.initErr
}
