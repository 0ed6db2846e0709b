package team

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Flatten reads the team back from its live objects: billing labels from the namespace (so a
// changed team or cost-centre label shows in pod_labels), members from their RoleBinding, the
// LocalQueues, and the admission policy's label key. An object deleted outside Terraform drops
// what it carried, so the plan shows the apply that restores it.
func (team) Flatten(ctx context.Context, p *framework.ProviderData, live []*unstructured.Unstructured, m *teamModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if importing {
		m.ForceDestroy = types.BoolValue(false)
		m.ProjectLabel = types.StringValue(defaultProjectLabel)
	}
	m.MemberGroups, m.MemberUsers = types.SetNull(types.StringType), types.SetNull(types.StringType)
	m.RequireProjectLabel = types.BoolValue(false)
	queues := map[string]string{}
	for _, obj := range live {
		if obj == nil {
			continue
		}
		switch obj.GetKind() {
		case namespaceKind.Kind:
			flattenNamespace(ctx, p, obj, m, importing, &diags)
		case serviceAccountKind.Kind:
			m.WorkflowServiceAccount = types.StringValue(obj.GetName())
		case roleBindingKind.Kind:
			if obj.GetName() == memberBinding {
				var rb rbacv1.RoleBinding
				if decode(obj, &rb, &diags) {
					m.MemberGroups, m.MemberUsers = subjectSets(rb.Subjects)
				}
			}
		case "LocalQueue":
			var lq kueuev1beta2.LocalQueue
			if decode(obj, &lq, &diags) {
				queues[lq.Name] = string(lq.Spec.ClusterQueue)
			}
		case policyKind.Kind:
			var p admissionv1.ValidatingAdmissionPolicy
			if decode(obj, &p, &diags) {
				m.RequireProjectLabel = types.BoolValue(true)
				if key := projectLabelOf(&p); key != "" {
					m.ProjectLabel = types.StringValue(key)
				}
			}
		}
	}
	m.LocalQueues = framework.AtomicMap(queues, m.LocalQueues)
	m.LocalQueueNames = localQueueNames(ctx, m.LocalQueues, &diags)
	if m.WorkflowServiceAccount.IsNull() {
		m.WorkflowServiceAccount = types.StringValue(defaultWorkflowAccount)
	}
	return diags
}

// flattenNamespace reads the billing and Kueue labels from the namespace. A cost-centre label
// equal to the provider's default one is the default's, unless the team set its own. On import,
// the labels the team writes itself (and the one the API server sets) are taken out of `labels`.
func flattenNamespace(ctx context.Context, p *framework.ProviderData, obj *unstructured.Unstructured, m *teamModel, importing bool, diags *diag.Diagnostics) {
	live := obj.GetLabels()
	own := map[string]string{LabelTeam: live[LabelTeam]}
	cc, ok := live[LabelCostCentre]
	if ok && p != nil && (importing || m.CostCentre.IsNull()) {
		if d, isDefault := p.DefaultLabels[LabelCostCentre]; isDefault && d == cc {
			ok = false
		}
	}
	m.CostCentre = types.StringNull()
	if ok {
		own[LabelCostCentre] = cc
		m.CostCentre = types.StringValue(cc)
	}
	m.PodLabels = framework.MapValue(own)
	if !importing {
		m.KueueNamespaceLabels = framework.ManagedMap(ctx, live, m.KueueNamespaceLabels, false, diags)
		return
	}
	kueue := map[string]string{}
	if v, ok := live[defaultKueueManagedLabel]; ok {
		kueue[defaultKueueManagedLabel] = v
	}
	m.KueueNamespaceLabels = framework.MapValue(kueue)
	// The billing labels stay in labels_all, which says what every object of the team carries.
	notOnEveryObject := []string{labelNamespaceName, defaultKueueManagedLabel}
	m.Labels = framework.AtomicMap(without(stringMap(ctx, m.Labels, diags), append(notOnEveryObject, slices.Collect(maps.Keys(own))...)),
		types.MapNull(types.StringType))
	m.LabelsAll = framework.MapValue(without(stringMap(ctx, m.LabelsAll, diags), notOnEveryObject))
}

// without is labels without keys.
func without(labels map[string]string, keys []string) map[string]string {
	for _, k := range keys {
		delete(labels, k)
	}
	return labels
}

// subjectSets are the member groups and users of a RoleBinding (null when none).
func subjectSets(subjects []rbacv1.Subject) (groups, users types.Set) {
	var g, u []string
	for _, s := range subjects {
		switch s.Kind {
		case rbacv1.GroupKind:
			g = append(g, s.Name)
		case rbacv1.UserKind:
			u = append(u, s.Name)
		}
	}
	return setOrNull(g), setOrNull(u)
}

func setOrNull(values []string) types.Set {
	if len(values) == 0 {
		return types.SetNull(types.StringType)
	}
	v, _ := types.SetValueFrom(context.Background(), types.StringType, values)
	return v
}

// decode converts a live object into its typed form.
func decode(obj *unstructured.Unstructured, into any, diags *diag.Diagnostics) bool {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, into); err != nil {
		diags.AddError("Decoding "+obj.GetKind()+" "+obj.GetName(), err.Error())
		return false
	}
	return true
}
