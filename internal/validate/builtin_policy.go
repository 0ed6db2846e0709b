package validate

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// ValidatingAdmissionPolicy and its binding, as k8s.io/kubernetes v1.35
// pkg/apis/admissionregistration/validation/validation.go checks them, in part: metadata, the
// match resources' label selectors, and the CEL variables and validations compiled by
// k8s.io/apiserver's admission compiler, which is what a user's input reaches in what the
// provider writes. Not checked (the provider writes constants there, and upstream's checks of
// them are not small): failurePolicy, paramKind and paramRef, matchPolicy, the resource rules,
// matchConditions, auditAnnotations and validationActions.

var (
	policySpec = field.NewPath("spec")
	// celIdent and celReserved are isCELIdentifier's (validation.go:1330).
	celIdent    = regexp.MustCompile("^[_a-zA-Z][_a-zA-Z0-9]*$")
	celReserved = map[string]bool{"true": true, "false": true, "null": true, "in": true, "as": true, "break": true,
		"const": true, "continue": true, "else": true, "for": true, "function": true, "if": true, "import": true,
		"let": true, "loop": true, "package": true, "namespace": true, "return": true, "var": true, "void": true,
		"while": true}
	newline = regexp.MustCompile(`[\n\r]+`)
	// supportedReasons is supportedValidationPolicyReason (validation.go:509).
	supportedReasons = []string{string(metav1.StatusReasonForbidden), string(metav1.StatusReasonInvalid),
		string(metav1.StatusReasonRequestEntityTooLarge)}
	// statelessCompiler is getStrictStatelessCELCompiler (validation.go:1309), for policies
	// without variables.
	statelessCompiler = sync.OnceValue(func() plugincel.Compiler {
		return plugincel.NewCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	})
)

// validatePolicy is validateValidatingAdmissionPolicy (validation.go:766) for what it covers.
func validatePolicy(_ context.Context, u map[string]any) (field.ErrorList, error) {
	p, err := typed[admissionv1.ValidatingAdmissionPolicy](u)
	if err != nil {
		return nil, err
	}
	errs := metavalidation.ValidateObjectMeta(&p.ObjectMeta, false, metavalidation.NameIsDNSSubdomain, metaPath)
	if mc := p.Spec.MatchConstraints; mc != nil {
		errs = append(errs, matchSelectors(mc, policySpec.Child("matchConstraints"))...)
	}
	pc := policyCompiler{hasParams: p.Spec.ParamKind != nil, vars: p.Spec.Variables}
	for i, v := range p.Spec.Variables {
		verrs, err := policyVariable(pc, i, v, policySpec.Child("variables").Index(i))
		if err != nil {
			return nil, err
		}
		errs = append(errs, verrs...)
	}
	if len(p.Spec.Validations) == 0 && len(p.Spec.AuditAnnotations) == 0 {
		msg := "validations or auditAnnotations must contain at least one item"
		return append(errs, field.Required(policySpec.Child("validations"), msg), field.Required(policySpec.Child("auditAnnotations"), msg)), nil
	}
	for i, v := range p.Spec.Validations {
		verrs, err := policyValidation(pc, v, policySpec.Child("validations").Index(i))
		if err != nil {
			return nil, err
		}
		errs = append(errs, verrs...)
	}
	return errs, nil
}

// matchSelectors is the selector part of validateMatchResources (validation.go:886), after
// SetDefaults_MatchResources made a missing selector empty.
func matchSelectors(mc *admissionv1.MatchResources, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	opts := metav1validation.LabelSelectorValidationOptions{}
	if mc.NamespaceSelector != nil {
		errs = append(errs, metav1validation.ValidateLabelSelector(mc.NamespaceSelector, opts, p.Child("namespaceSelector"))...)
	}
	if mc.ObjectSelector != nil {
		errs = append(errs, metav1validation.ValidateLabelSelector(mc.ObjectSelector, opts, p.Child("objectSelector"))...)
	}
	return errs
}

// policyVariable is validateVariable (validation.go:999) of the i-th variable.
func policyVariable(pc policyCompiler, i int, v admissionv1.Variable, p *field.Path) (field.ErrorList, error) {
	var errs field.ErrorList
	if strings.TrimSpace(v.Name) == "" {
		errs = append(errs, field.Required(p.Child("name"), "name is not specified"))
	} else if !celIdent.MatchString(v.Name) || celReserved[v.Name] {
		errs = append(errs, field.Invalid(p.Child("name"), v.Name, "must be a valid CEL identifier"))
	}
	if strings.TrimSpace(v.Expression) == "" {
		return append(errs, field.Required(p.Child("expression"), "expression is not specified")), nil
	}
	cerr, err := pc.variable(i)
	if cerr != nil {
		errs = append(errs, celError(p.Child("expression"), v.Expression, cerr))
	}
	return errs, err
}

// policyValidation is validateValidation (validation.go:1034).
func policyValidation(pc policyCompiler, v admissionv1.Validation, p *field.Path) (field.ErrorList, error) {
	var errs field.ErrorList
	if strings.TrimSpace(v.Expression) == "" {
		errs = append(errs, field.Required(p.Child("expression"), "expression is not specified"))
	} else {
		cerr, err := pc.condition(v.Expression, false)
		if err != nil {
			return nil, err
		}
		if cerr != nil {
			errs = append(errs, celError(p.Child("expression"), v.Expression, cerr))
		}
	}
	if trimmed := strings.TrimSpace(v.MessageExpression); len(v.MessageExpression) > 0 && trimmed == "" {
		errs = append(errs, field.Invalid(p.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
	} else if trimmed != "" {
		cerr, err := pc.condition(v.MessageExpression, true)
		if err != nil {
			return nil, err
		}
		if cerr != nil {
			errs = append(errs, celError(p.Child("messageExpression"), v.MessageExpression, cerr))
		}
	}
	if trimmed := strings.TrimSpace(v.Message); len(v.Message) > 0 && trimmed == "" {
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, "must be non-empty if specified"))
	} else if newline.MatchString(trimmed) {
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, "must not contain line breaks"))
	}
	if v.Reason != nil && !slices.Contains(supportedReasons, string(*v.Reason)) {
		errs = append(errs, field.NotSupported(p.Child("reason"), *v.Reason, supportedReasons))
	}
	return errs, nil
}

// policyExpr is one expression of a policy as the admission compiler takes it: what
// k8s.io/apiserver's policy/validating package types (Variable, ValidationCondition,
// MessageExpressionCondition in interface.go and message.go) hold, without importing that package,
// which brings the whole admission plugin and its tracing into the provider.
type policyExpr struct {
	name, expression string
	returns          []*celgo.Type
}

// The return types upstream's accessors declare.
var (
	variableTypes   = []*celgo.Type{celgo.AnyType, celgo.DynType}
	validationTypes = []*celgo.Type{celgo.BoolType}
	messageTypes    = []*celgo.Type{celgo.StringType}
)

func (e *policyExpr) GetName() string            { return e.name }
func (e *policyExpr) GetExpression() string      { return e.expression }
func (e *policyExpr) ReturnTypes() []*celgo.Type { return e.returns }

// celError is convertCELErrorToValidationError (validation.go:1073).
func celError(p *field.Path, expression string, err *apiservercel.Error) *field.Error {
	switch err.Type {
	case apiservercel.ErrorTypeRequired:
		return field.Required(p, err.Detail)
	case apiservercel.ErrorTypeInvalid:
		return field.Invalid(p, expression, err.Detail)
	default:
		return field.InternalError(p, err)
	}
}

// validatePolicyBinding is validateValidatingAdmissionPolicyBinding (validation.go:1174) for what
// it covers: metadata, policyName, and the match resources' selectors.
func validatePolicyBinding(_ context.Context, u map[string]any) (field.ErrorList, error) {
	b, err := typed[admissionv1.ValidatingAdmissionPolicyBinding](u)
	if err != nil {
		return nil, err
	}
	errs := metavalidation.ValidateObjectMeta(&b.ObjectMeta, false, metavalidation.NameIsDNSSubdomain, metaPath)
	if b.Spec.PolicyName == "" {
		errs = append(errs, field.Required(policySpec.Child("policyName"), ""))
	} else {
		for _, msg := range metavalidation.NameIsDNSSubdomain(b.Spec.PolicyName, false) {
			errs = append(errs, field.Invalid(policySpec.Child("policyName"), b.Spec.PolicyName, msg))
		}
	}
	if mr := b.Spec.MatchResources; mr != nil {
		errs = append(errs, matchSelectors(mr, policySpec.Child("matchResources"))...)
	}
	return errs, nil
}
