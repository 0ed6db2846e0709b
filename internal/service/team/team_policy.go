package team

import (
	"fmt"
	"strconv"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	admissionv1ac "k8s.io/client-go/applyconfigurations/admissionregistration/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
)

// The admission policy that makes every new pod in a team's namespace name its project. The
// label key is a CEL variable, so the rule reads the same for any key and Flatten reads the key
// back from the variable.

// projectRule is the CEL rule: the pod has the label, not empty.
const projectRule = "has(object.metadata.labels) && " + projectLabelVariableExpr + " in object.metadata.labels && " +
	"object.metadata.labels[" + projectLabelVariableExpr + "] != ''"

// projectPolicy is the ValidatingAdmissionPolicy for namespace ns and label key.
func projectPolicy(ns, key string, labels, annotations map[string]string) *admissionv1ac.ValidatingAdmissionPolicyApplyConfiguration {
	message := fmt.Sprintf("pods in namespace %s must carry the label %s naming the project their GPU-hours are billed to "+
		"(mlplatform_team %s requires it): add it to the pod template", ns, key, ns)
	return admissionv1ac.ValidatingAdmissionPolicy(policyName(ns)).WithLabels(labels).WithAnnotations(annotations).
		WithSpec(admissionv1ac.ValidatingAdmissionPolicySpec().
			WithFailurePolicy(admissionv1.Fail).
			// Create only: a pod's labels are set when it is made, and updates (Kueue ungating it, a
			// controller patching its status) must go through for pods that predate the policy.
			WithMatchConstraints(admissionv1ac.MatchResources().WithResourceRules(
				admissionv1ac.NamedRuleWithOperations().
					WithOperations(admissionv1.Create).
					WithAPIGroups("").WithAPIVersions("v1").WithResources("pods"))).
			WithVariables(admissionv1ac.Variable().WithName(projectLabelVariable).WithExpression(strconv.Quote(key))).
			WithValidations(admissionv1ac.Validation().WithExpression(projectRule).WithMessage(message).
				WithReason(metav1.StatusReasonForbidden)))
}

// projectPolicyBinding binds the policy to namespace ns, denying what it refuses.
func projectPolicyBinding(ns string, labels, annotations map[string]string) *admissionv1ac.ValidatingAdmissionPolicyBindingApplyConfiguration {
	return admissionv1ac.ValidatingAdmissionPolicyBinding(policyName(ns)).WithLabels(labels).WithAnnotations(annotations).
		WithSpec(admissionv1ac.ValidatingAdmissionPolicyBindingSpec().
			WithPolicyName(policyName(ns)).
			WithValidationActions(admissionv1.Deny).
			WithMatchResources(admissionv1ac.MatchResources().WithNamespaceSelector(
				metav1ac.LabelSelector().WithMatchLabels(map[string]string{labelNamespaceName: ns}))))
}

// projectLabelOf is the label key a live policy requires ("" if it does not say).
func projectLabelOf(p *admissionv1.ValidatingAdmissionPolicy) string {
	for _, v := range p.Spec.Variables {
		if v.Name == projectLabelVariable {
			if key, err := strconv.Unquote(v.Expression); err == nil {
				return key
			}
		}
	}
	return ""
}
