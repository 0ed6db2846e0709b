package testcluster

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrlclient "sigs.k8s.io/controller-runtime/pkg/client"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	karpv1alpha1 "sigs.k8s.io/karpenter/pkg/apis/v1alpha1"
)

// KWOKNodeClass is the KWOKNodeClass (karpenter.kwok.sh/v1alpha1) that UseKWOKNodeClass points
// the NodePools at. It has no spec to speak of: KWOK's nodes come up at once.
const KWOKNodeClass = "testcluster"

// kwokNodeClassCRDs is where the karpenter module go.mod pins keeps the KWOKNodeClass CRD.
func kwokNodeClassCRDs() (string, error) {
	dir, _, err := moduleDir(karpenterModule)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kwok", "apis", "crds"), nil
}

// kwokNodeClassGroup is the API group of the KWOK cloud provider's node class.
const kwokNodeClassGroup = "karpenter.kwok.sh"

// UseKWOKNodeClass replaces every NodePool whose nodeClassRef is not a KWOKNodeClass with a copy
// that differs only in its nodeClassRef, KWOKNodeClass: Karpenter's KWOK cloud provider launches
// nodes for no other. The nodeClassRef's group and kind are immutable, so each is deleted and
// created again under its name, with its labels and annotations (the provider's owner marks
// included: the provider still deletes it on destroy). Its requirements, labels, taints, limits,
// disruption and weight stay the provider's. It returns the originals, for RestoreNodePools.
func (c *Cluster) UseKWOKNodeClass(ctx context.Context) ([]karpv1.NodePool, error) {
	k, err := c.ctrlClient()
	if err != nil {
		return nil, err
	}
	class := map[string]any{"apiVersion": kwokNodeClassGroup + "/v1alpha1", "kind": "KWOKNodeClass", "metadata": map[string]any{"name": KWOKNodeClass}}
	if err := createIfMissing(ctx, k, class); err != nil {
		return nil, fmt.Errorf("creating KWOKNodeClass %s: %w", KWOKNodeClass, err)
	}
	var list karpv1.NodePoolList
	if err := k.List(ctx, &list); err != nil {
		return nil, err
	}
	var originals []karpv1.NodePool
	for _, np := range list.Items {
		if np.Spec.Template.Spec.NodeClassRef == nil || np.Spec.Template.Spec.NodeClassRef.Group == kwokNodeClassGroup {
			continue
		}
		originals = append(originals, *np.DeepCopy())
		np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: kwokNodeClassGroup, Kind: "KWOKNodeClass", Name: KWOKNodeClass}
		if err := replaceNodePool(ctx, k, np); err != nil {
			return originals, err
		}
	}
	return originals, nil
}

// RestoreNodePools puts back NodePools that UseKWOKNodeClass replaced, as they were.
func (c *Cluster) RestoreNodePools(ctx context.Context, originals []karpv1.NodePool) error {
	k, err := c.ctrlClient()
	if err != nil {
		return err
	}
	for _, np := range originals {
		if err := replaceNodePool(ctx, k, np); err != nil {
			return err
		}
	}
	return nil
}

// KarpenterInstanceTypes is KarpenterInstanceTypes for the NodePools and NodeOverlays the cluster
// has, with region's prices.
func (c *Cluster) KarpenterInstanceTypes(ctx context.Context, region string) ([]byte, error) {
	k, err := c.ctrlClient()
	if err != nil {
		return nil, err
	}
	var pools karpv1.NodePoolList
	if err := k.List(ctx, &pools); err != nil {
		return nil, err
	}
	var overlays karpv1alpha1.NodeOverlayList
	if err := k.List(ctx, &overlays); err != nil {
		return nil, err
	}
	return KarpenterInstanceTypes(region, pools.Items, overlays.Items)
}

// ctrlClient is a controller-runtime client for the cluster. Karpenter's API packages add their types
// to client-go's scheme, which it uses.
func (c *Cluster) ctrlClient() (ctrlclient.Client, error) {
	return ctrlclient.New(c.Config, ctrlclient.Options{})
}

// createIfMissing creates obj unless an object of its kind and name exists.
func createIfMissing(ctx context.Context, k ctrlclient.Client, obj map[string]any) error {
	err := k.Create(ctx, &unstructured.Unstructured{Object: obj})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// replaceNodePool deletes the NodePool named like np, waits until it is gone, and creates np.
func replaceNodePool(ctx context.Context, k ctrlclient.Client, np karpv1.NodePool) error {
	old := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: np.Name}}
	if err := k.Delete(ctx, old); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting NodePool %s: %w", np.Name, err)
	}
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		err := k.Get(ctx, ctrlclient.ObjectKeyFromObject(old), old)
		return apierrors.IsNotFound(err), ctrlclient.IgnoreNotFound(err)
	})
	if err != nil {
		return fmt.Errorf("waiting for NodePool %s to go: %w", np.Name, err)
	}
	np.ObjectMeta = metav1.ObjectMeta{Name: np.Name, Labels: np.Labels, Annotations: np.Annotations}
	np.Status = karpv1.NodePoolStatus{}
	if err := k.Create(ctx, &np); err != nil {
		return fmt.Errorf("creating NodePool %s again: %w", np.Name, err)
	}
	return nil
}

// RunPoolsOnKWOK has Karpenter launch nodes for the NodePools the cluster has: it points them at
// the KWOKNodeClass (UseKWOKNodeClass) and starts Karpenter with the instance types they and their
// NodeOverlays need, priced in region. It returns the original NodePools, for StopPoolsOnKWOK.
func (c *Cluster) RunPoolsOnKWOK(ctx context.Context, region string) ([]karpv1.NodePool, error) {
	originals, err := c.UseKWOKNodeClass(ctx)
	if err != nil {
		return originals, err
	}
	types, err := c.KarpenterInstanceTypes(ctx, region)
	if err != nil {
		return originals, err
	}
	return originals, c.StartKarpenter(types)
}

// StopPoolsOnKWOK undoes RunPoolsOnKWOK: it puts the original NodePools back, waits while
// Karpenter removes the nodes of the copies (their NodeClaims follow the copies), and stops it.
func (c *Cluster) StopPoolsOnKWOK(ctx context.Context, originals []karpv1.NodePool) error {
	if err := c.RestoreNodePools(ctx, originals); err != nil {
		return errors.Join(err, c.StopKarpenter())
	}
	k, err := c.ctrlClient()
	if err != nil {
		return errors.Join(err, c.StopKarpenter())
	}
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		var claims karpv1.NodeClaimList
		if err := k.List(ctx, &claims); err != nil {
			return false, err
		}
		return len(claims.Items) == 0 || c.karpenter == nil, nil
	})
	if err != nil {
		err = fmt.Errorf("waiting for Karpenter to remove the nodes of the KWOK NodePools: %w", err)
	}
	return errors.Join(err, c.StopKarpenter())
}
