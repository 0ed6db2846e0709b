package simulate

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// admit gives each Kueue object of in as the API server would store it: pruned, defaulted by its
// CRD and Kueue's mutating webhook, and refused as the CRD's rules and Kueue's validating webhook
// refuse it, so that the scheduler sees what it would see on a cluster.
func admit(ctx context.Context, in *Input) error {
	in.Flavors = deepCopies(in.Flavors)
	in.Cohorts = deepCopies(in.Cohorts)
	in.ClusterQueues = deepCopies(in.ClusterQueues)
	in.LocalQueues = deepCopies(in.LocalQueues)
	in.PriorityClasses = deepCopies(in.PriorityClasses)
	for i := range in.Flavors {
		if err := admitOne(ctx, "ResourceFlavor", &in.Flavors[i]); err != nil {
			return err
		}
	}
	for i := range in.Cohorts {
		if err := admitOne(ctx, "Cohort", &in.Cohorts[i]); err != nil {
			return err
		}
	}
	for i := range in.ClusterQueues {
		if err := admitOne(ctx, "ClusterQueue", &in.ClusterQueues[i]); err != nil {
			return err
		}
	}
	for i := range in.LocalQueues {
		if err := admitOne(ctx, "LocalQueue", &in.LocalQueues[i]); err != nil {
			return err
		}
	}
	for i := range in.PriorityClasses {
		if err := admitOne(ctx, "WorkloadPriorityClass", &in.PriorityClasses[i]); err != nil {
			return err
		}
	}
	return nil
}

type kueueObject interface {
	runtime.Object
	GetName() string
	GetNamespace() string
}

func admitOne(ctx context.Context, kind string, obj kueueObject) error {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{Group: kueue.SchemeGroupVersion.Group, Version: kueue.SchemeGroupVersion.Version, Kind: kind})
	name := obj.GetName()
	if ns := obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	stored, errs, err := validate.Admitted(ctx, obj)
	if err != nil {
		return fmt.Errorf("%s %s: %w", kind, name, err)
	}
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = validate.Text(e)
		}
		return fmt.Errorf("%s %s is refused by Kueue: %s", kind, name, strings.Join(msgs, "; "))
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(stored, obj)
}

// deepCopies copies objects so that defaulting them leaves the caller's untouched.
func deepCopies[T any, P interface {
	*T
	DeepCopyInto(*T)
}](in []T) []T {
	out := make([]T, len(in))
	for i := range in {
		P(&in[i]).DeepCopyInto(&out[i])
	}
	return out
}
