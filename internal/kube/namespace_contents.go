package kube

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// listParallelism bounds the lists in flight: a cluster serves dozens of namespaced types.
const listParallelism = 8

// NamespaceContents lists what deleting namespace would delete: the objects of every namespaced
// resource type the server serves (in its preferred version) that supports list and delete, the
// types kube-controller-manager's namespace controller deletes, except those skip accepts.
// Discovery is asked uncached, so that a type installed since the provider started is not missed.
// The objects carry apiVersion, kind and metadata only (the metadata API spares their bodies).
//
// It fails closed: each type it could not list (its group's discovery failed, the list was
// refused, timed out, ...) is an entry of the error, returned with the objects it could list. A
// list answered 404 is skipped: the type stopped being served since discovery, so holds nothing.
func (c *Client) NamespaceContents(ctx context.Context, namespace string, skip func(Kind) bool) ([]*unstructured.Unstructured, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	kinds, err := c.deletableNamespacedKinds(ctx)
	if kinds == nil {
		return nil, err
	}
	kinds = slices.DeleteFunc(kinds, skip)
	found := make([][]*unstructured.Unstructured, len(kinds))
	errs := make([]error, len(kinds)+1)
	errs[len(kinds)] = err
	var wg sync.WaitGroup
	slots := make(chan struct{}, listParallelism)
	for i, k := range kinds {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			found[i], errs[i] = c.listMetadata(ctx, k, namespace)
		})
	}
	wg.Wait()
	return slices.Concat(found...), errors.Join(errs...)
}

// deletableNamespacedKinds are the namespaced types, in their preferred versions, that support
// list and delete, sorted. A discovery that failed for some groups returns the others with an
// error naming those groups; one that failed altogether returns nil.
func (c *Client) deletableNamespacedKinds(ctx context.Context) ([]Kind, error) {
	lists, err := discovery.ServerPreferredNamespacedResourcesWithContext(ctx, discovery.ToDiscoveryInterfaceWithContext(c.direct))
	var partial *discovery.ErrGroupDiscoveryFailed
	if err != nil && !errors.As(err, &partial) {
		return nil, fmt.Errorf("discovering the resource types the API server serves: %w", err)
	}
	if err != nil {
		err = fmt.Errorf("discovering the resource types the API server serves, so their objects were not listed: %w", err)
	}
	kinds := []Kind{}
	deletable := discovery.SupportsAllVerbs{Verbs: []string{"list", "delete"}}
	for _, list := range discovery.FilteredBy(deletable, lists) {
		gv, perr := schema.ParseGroupVersion(list.GroupVersion)
		if perr != nil {
			return nil, fmt.Errorf("discovery answered an invalid group version %q: %w", list.GroupVersion, perr)
		}
		for _, r := range list.APIResources {
			kinds = append(kinds, Kind{GVR: gv.WithResource(r.Name), Kind: r.Kind, Namespaced: true})
		}
	}
	slices.SortFunc(kinds, func(a, b Kind) int { return cmp.Compare(a.String(), b.String()) })
	return kinds, err
}

// listMetadata lists the metadata of k's objects in namespace, with apiVersion and kind set.
func (c *Client) listMetadata(ctx context.Context, k Kind, namespace string) ([]*unstructured.Unstructured, error) {
	list, err := c.metadata.Resource(k.GVR).Namespace(namespace).List(ctx, metav1.ListOptions{})
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, describe(err, "list", k, namespace, "")
	}
	out := make([]*unstructured.Unstructured, 0, len(list.Items))
	for i := range list.Items {
		raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&list.Items[i])
		if err != nil {
			return nil, fmt.Errorf("reading the metadata of %s %s: %w", k, qualified(namespace, list.Items[i].Name), err)
		}
		obj := &unstructured.Unstructured{Object: raw}
		obj.SetAPIVersion(k.GVR.GroupVersion().String())
		obj.SetKind(k.Kind)
		out = append(out, obj)
	}
	return out, nil
}
