package validate

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// admitFunc is the validating admission step of one kind: upstream's own admission code run on an
// object its CRD accepted (pruned, defaulted and mutated as the apiserver stores it). The error is for an object
// the step cannot judge.
type admitFunc func(ctx context.Context, u map[string]any) (field.ErrorList, error)

// admissions are the kinds whose upstream exports admission code, by the version it is written
// for. LocalQueue, WorkloadPriorityClass, Topology, AdmissionCheck and ProvisioningRequestConfig have
// no webhook in Kueue v0.19.2 (pkg/webhooks/webhooks.go registers none for them): their CRD's schema
// and CEL rules are all the apiserver checks. Karpenter validates with CEL, and its controller
// checks an EC2NodeClass's kubelet map (admission_karpenter.go).
var admissions = map[schema.GroupVersionKind]admitFunc{
	kueueGVK("ClusterQueue"):    admitClusterQueue,
	kueueGVK("ResourceFlavor"):  admitResourceFlavor,
	kueueGVK("Cohort"):          admitCohort,
	argoGVK("WorkflowTemplate"): admitWorkflowTemplate,
	argoGVK("CronWorkflow"):     admitCronWorkflow,
	ec2NodeClassGVK:             admitEC2NodeClass,
}

// admit runs the admission step of gvk, if upstream has one, on u, which it does not change.
func admit(ctx context.Context, gvk schema.GroupVersionKind, u map[string]any) (field.ErrorList, error) {
	a, ok := admissions[gvk]
	if !ok {
		return nil, nil
	}
	return a(ctx, u)
}

// Text is what a user reads of an upstream error: as the apiserver prints it, path included, or
// only upstream's words for a refusal that names no field.
func Text(e *field.Error) string {
	if e.Field == "" {
		return e.Detail
	}
	return e.Error()
}

// refusals are an admission error's field errors, each kept with its path; what upstream words
// as plain text is one error without a field (Text prints it as is).
func refusals(err error) field.ErrorList {
	if err == nil {
		return nil
	}
	var agg utilerrors.Aggregate
	if !errors.As(err, &agg) {
		return field.ErrorList{textRefusal(err.Error())}
	}
	var out field.ErrorList
	for _, e := range agg.Errors() {
		var fe *field.Error
		if errors.As(e, &fe) {
			out = append(out, fe)
		} else {
			out = append(out, textRefusal(e.Error()))
		}
	}
	return out
}

func textRefusal(msg string) *field.Error {
	return &field.Error{Type: field.ErrorTypeForbidden, Detail: msg}
}

// convertError is the engine's error for an object upstream's typed API cannot hold.
func convertError(kind any, err error) error {
	return fmt.Errorf("reading the object as upstream's %v: %w", kind, err)
}
