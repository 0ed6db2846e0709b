package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
)

// NotInstalledError says that the cluster does not serve an API the provider needs.
type NotInstalledError struct{ Kind Kind }

func (e *NotInstalledError) Error() string {
	gv := e.Kind.GVR.GroupVersion().String()
	return fmt.Sprintf("%s (%s) is not installed on this cluster: the API server does not serve %s %s; install it first",
		e.Kind.Requires, gv, gv, e.Kind.GVR.Resource)
}

// EnsureServed checks once per process, through the cached discovery client, that the cluster
// serves k. A miss refreshes the cache once, so an API installed during the run is still found.
func (c *Client) EnsureServed(ctx context.Context, k Kind) error {
	if _, ok := c.served.Load(k.GVR); ok {
		return nil
	}
	if err := c.connect(); err != nil {
		return err
	}
	found, err := c.serves(k)
	if err == nil && !found {
		c.discovery.Invalidate()
		found, err = c.serves(k)
	}
	if err != nil {
		return err
	}
	if !found {
		return &NotInstalledError{Kind: k}
	}
	c.served.Store(k.GVR, struct{}{})
	return nil
}

func (c *Client) serves(k Kind) (bool, error) {
	return servedBy(c.discovery, k)
}

// servedBy asks d whether the cluster serves k.
func servedBy(d discovery.DiscoveryInterface, k Kind) (bool, error) {
	list, err := d.ServerResourcesForGroupVersion(k.GVR.GroupVersion().String())
	// The cached client reports a group/version the server does not serve as ErrCacheNotFound.
	if apierrors.IsNotFound(err) || errors.Is(err, memory.ErrCacheNotFound) {
		return false, nil
	}
	if err != nil {
		return false, describe(err, "discover", k, "", "")
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == k.GVR.Resource }), nil
}

// confirmNotFound turns a 404 for object name of k into the answer Read may act on. The API server
// answers 404 both for an object that does not exist and for an API it does not serve (Kueue
// uninstalled, a CRD being replaced, the wrong cluster), and only the first means the object is
// gone. So the server is asked, uncached, whether it serves k: if it does, notFound stands; if not,
// the error is a NotInstalledError, for which IsNotFound is false, and nothing is forgotten.
func (c *Client) confirmNotFound(k Kind, notFound error) error {
	found, err := servedBy(c.direct, k)
	if err != nil {
		return fmt.Errorf("the server answered 404, and checking whether it serves %s failed: %w", k, err)
	}
	if !found {
		c.served.Delete(k.GVR)
		return &NotInstalledError{Kind: k}
	}
	return notFound
}
