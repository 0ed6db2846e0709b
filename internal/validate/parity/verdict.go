package parity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// Verdict is one side's judgement of an object.
type Verdict struct {
	Refused bool
	Why     string
	Fields  []string // the fields of the errors, sorted, once each
	// Webhook is the admission webhook that refused the object on the apiserver's side, and Denial
	// its words (what the webhook's errors print as one aggregate, as the engine's do).
	Webhook, Denial string
}

func (v Verdict) String() string {
	if !v.Refused {
		return "accepted"
	}
	return "refused: " + v.Why
}

// EngineVerdict is the verdict of an engine's judgement: errs, or err when it could not judge (a
// refusal too: the provider stops on it).
func EngineVerdict(errs field.ErrorList, err error) Verdict {
	if err != nil {
		return Verdict{Refused: true, Why: "cannot judge: " + err.Error()}
	}
	if len(errs) == 0 {
		return Verdict{}
	}
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	return Verdict{Refused: true, Why: errs.ToAggregate().Error(), Fields: sortedSet(fields), Denial: denial(errs)}
}

// denial is errs as a webhook words them: as an aggregate prints them (one error alone, else a
// bracketed list, duplicates once), each as validate.Text prints it (a refusal without a field is
// the webhook's plain words).
func denial(errs field.ErrorList) string {
	var texts []string
	for _, e := range errs {
		if t := validate.Text(e); !slices.Contains(texts, t) {
			texts = append(texts, t)
		}
	}
	if len(texts) == 1 {
		return texts[0]
	}
	return "[" + strings.Join(texts, ", ") + "]"
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// APIServerVerdict creates obj with a server-side dry run: the apiserver judges it fully (its
// admission webhooks included) and stores nothing. It returns the object as the apiserver would
// have stored it when it accepts. The error is for an answer that is no verdict.
func APIServerVerdict(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, obj map[string]any) (Verdict, *unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{Object: obj}
	created, err := dyn.Resource(gvr).Namespace(u.GetNamespace()).Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil {
		return Verdict{}, created, nil
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return Verdict{}, nil, fmt.Errorf("dry-run create of %s: %w", u.GetKind(), err)
	}
	if webhook, denial, ok := webhookDenial(status.Status().Message); ok {
		return Verdict{Refused: true, Why: err.Error(), Webhook: webhook, Denial: denial}, nil, nil
	}
	if !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) {
		return Verdict{}, nil, fmt.Errorf("dry-run create of %s: %w", u.GetKind(), err)
	}
	var fields []string
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			fields = append(fields, c.Field)
		}
	}
	return Verdict{Refused: true, Why: err.Error(), Fields: sortedSet(fields)}, nil, nil
}

// webhookDenial splits the apiserver's message for a webhook's refusal (webhookerrors.ToStatusErr
// in k8s.io/apiserver) into the webhook's name and its words.
func webhookDenial(msg string) (webhook, denial string, ok bool) {
	const prefix, sep = `admission webhook "`, `" denied the request: `
	rest, ok := strings.CutPrefix(msg, prefix)
	if !ok {
		return "", "", false
	}
	webhook, denial, ok = strings.Cut(rest, sep)
	return webhook, denial, ok
}

// ServedCRD is the CRD of gk the apiserver serves.
func ServedCRD(ctx context.Context, crds interface {
	List(context.Context, metav1.ListOptions) (*apiextensionsv1.CustomResourceDefinitionList, error)
}, gk schema.GroupKind) (*apiextensionsv1.CustomResourceDefinition, error) {
	list, err := crds.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for i, crd := range list.Items {
		if crd.Spec.Group == gk.Group && crd.Spec.Names.Kind == gk.Kind {
			return &list.Items[i], nil
		}
	}
	return nil, fmt.Errorf("the apiserver serves no CRD of %s", gk)
}
