package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	list, err := c.discovery.ServerResourcesForGroupVersion(k.GVR.GroupVersion().String())
	// The cached client reports a group/version the server does not serve as ErrCacheNotFound.
	if apierrors.IsNotFound(err) || errors.Is(err, memory.ErrCacheNotFound) {
		return false, nil
	}
	if err != nil {
		return false, describe(err, "discover", k, "", "")
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == k.GVR.Resource }), nil
}
