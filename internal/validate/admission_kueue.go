package validate

import (
	"context"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/webhooks"
)

func kueueGVK(kind string) schema.GroupVersionKind { return kueuev1beta2.GroupVersion.WithKind(kind) }

// Kueue's webhooks, as its manager registers them (pkg/webhooks/webhooks.go): none needs a client
// or a feature gate. Cohort registers a validator only.
var (
	admitClusterQueue   = kueueWebhook[*kueuev1beta2.ClusterQueue](&webhooks.ClusterQueueWebhook{}, &webhooks.ClusterQueueWebhook{})
	admitResourceFlavor = kueueWebhook[*kueuev1beta2.ResourceFlavor](&webhooks.ResourceFlavorWebhook{}, &webhooks.ResourceFlavorWebhook{})
	admitCohort         = kueueWebhook[*kueuev1beta2.Cohort](nil, &webhooks.CohortWebhook{})
)

// kueueWebhook admits as a Kueue webhook pair does on create: the mutating webhook's Default, then
// the validating webhook's ValidateCreate. An update is judged as a create: ValidateUpdate would
// need the live object (a GET), and Kueue's ClusterQueue, ResourceFlavor and Cohort validators
// ignore it anyway in v0.17.0. The apiserver calls Default before the CRD checks; it runs here on
// a typed copy after them, which gives the same verdict because Kueue's defaulters only add the
// resource-in-use finalizer, which the CRD checks do not read.
func kueueWebhook[T interface {
	runtime.Object
	*O
}, O any](d admission.Defaulter[T], v admission.Validator[T]) admitFunc {
	return func(ctx context.Context, u map[string]any) (field.ErrorList, error) {
		// The webhooks log through the context's logger; without one they would use
		// controller-runtime's global logger, which the provider never sets and which then writes
		// a complaint with a stack trace to stderr.
		ctx = ctrllog.IntoContext(ctx, logr.Discard())
		obj := T(new(O))
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, obj); err != nil {
			return nil, convertError(u["kind"], err)
		}
		if d != nil {
			if err := d.Default(ctx, obj); err != nil {
				return refusals(err), nil
			}
		}
		_, err := v.ValidateCreate(ctx, obj)
		return refusals(err), nil
	}
}
