package queue

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Target is what a LocalQueue sends workloads to: its ClusterQueue and the flavors that exist of
// those it names.
type Target struct {
	ClusterQueue *kueue.ClusterQueue
	Flavors      map[string]*kueue.ResourceFlavor
}

// Read reads LocalQueue namespace/name, its ClusterQueue and the ClusterQueue's flavors. An error
// wraps the kube error (kube.IsNotFound tells a missing queue); a missing flavor is left out of
// Flavors, since Check reports it.
func Read(ctx context.Context, c *kube.Client, namespace, name string) (*Target, error) {
	var lq kueue.LocalQueue
	if err := get(ctx, c, LocalQueueKind, namespace, name, &lq); err != nil {
		return nil, err
	}
	t := &Target{ClusterQueue: &kueue.ClusterQueue{}, Flavors: map[string]*kueue.ResourceFlavor{}}
	if err := get(ctx, c, ClusterQueueKind, "", string(lq.Spec.ClusterQueue), t.ClusterQueue); err != nil {
		return nil, fmt.Errorf("LocalQueue %s/%s points at ClusterQueue %s: %w", namespace, name, lq.Spec.ClusterQueue, err)
	}
	for _, rg := range t.ClusterQueue.Spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			f := &kueue.ResourceFlavor{}
			err := get(ctx, c, ResourceFlavorKind, "", string(fq.Name), f)
			switch {
			case kube.IsNotFound(err):
			case err != nil:
				return nil, err
			default:
				t.Flavors[string(fq.Name)] = f
			}
		}
	}
	return t, nil
}

func get(ctx context.Context, c *kube.Client, k kube.Kind, namespace, name string, into any) error {
	obj, err := c.Get(ctx, k, namespace, name)
	if err != nil {
		return err
	}
	return fromUnstructured(obj, into)
}

func fromUnstructured(obj *unstructured.Unstructured, into any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, into); err != nil {
		return fmt.Errorf("reading %s %s: %w", obj.GetKind(), obj.GetName(), err)
	}
	return nil
}
