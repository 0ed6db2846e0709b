package validate

import (
	"context"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/features"
	"sigs.k8s.io/kueue/pkg/webhooks"
)

// The ClusterQueue webhook checks concurrentAdmissionPolicy only while Kueue's alpha gate
// ConcurrentAdmission is on; off, Kueue stores the policy and ignores it. A queue that sets one
// is meant for a cluster with the gate on, so it is judged as that cluster's webhook judges it.
// Kueue's gates are the apiserver library's global gate, which nothing else in the provider reads.
func init() {
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.ConcurrentAdmission): true}); err != nil {
		panic(err) // a gate Kueue registers: cannot fail
	}
}

func kueueGVK(kind string) schema.GroupVersionKind {
	return kueuev1beta2.SchemeGroupVersion.WithKind(kind)
}

// Kueue's webhooks, as its manager registers them (pkg/webhooks/webhooks.go): none needs a client
// or a feature gate. ClusterQueue and ResourceFlavor have a mutating webhook (a defaulter) and a
// validating one; Cohort a validating one only.
var (
	mutateClusterQueue   = defaultingWebhook[*kueuev1beta2.ClusterQueue](kueueScheme, &webhooks.ClusterQueueWebhook{})
	mutateResourceFlavor = defaultingWebhook[*kueuev1beta2.ResourceFlavor](kueueScheme, &webhooks.ResourceFlavorWebhook{})

	admitClusterQueue   = kueueWebhook[*kueuev1beta2.ClusterQueue](&webhooks.ClusterQueueWebhook{})
	admitResourceFlavor = kueueWebhook[*kueuev1beta2.ResourceFlavor](&webhooks.ResourceFlavorWebhook{})
	admitCohort         = kueueWebhook[*kueuev1beta2.Cohort](&webhooks.CohortWebhook{})
)

// kueueScheme knows Kueue's types, for the defaulting webhooks' decoder.
var kueueScheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := kueuev1beta2.AddToScheme(s); err != nil {
		panic(err) // only registers types: cannot fail
	}
	return s
})

// kueueWebhook admits as a Kueue validating webhook does on create: ValidateCreate on the object
// as the mutating step and the CRD's checks left it. An update is judged as a create:
// ValidateUpdate would need the live object (a GET). In v0.19.2 the ResourceFlavor and Cohort
// validators ignore it; the ClusterQueue one also lets an update keep admission-check onFlavors that
// no longer name a flavor (so a create's judgement is stricter, never looser) and keeps
// concurrentAdmissionPolicy immutable (the attribute's change replaces the queue).
func kueueWebhook[T interface {
	runtime.Object
	*O
}, O any](v admission.Validator[T]) admitFunc {
	return func(ctx context.Context, u map[string]any) (field.ErrorList, error) {
		// The webhooks log through the context's logger; without one they would use
		// controller-runtime's global logger, which the provider never sets and which then writes
		// a complaint with a stack trace to stderr.
		ctx = ctrllog.IntoContext(ctx, logr.Discard())
		obj := T(new(O))
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, obj); err != nil {
			return nil, convertError(u["kind"], err)
		}
		_, err := v.ValidateCreate(ctx, obj)
		return refusals(err), nil
	}
}
