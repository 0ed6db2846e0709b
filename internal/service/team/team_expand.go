package team

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	rbacv1ac "k8s.io/client-go/applyconfigurations/rbac/v1"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// Refs are the team's objects of fixed names: the namespace first (deleting it deletes the
// namespaced ones with it, which is why CheckDestroy looks there first), then its access and the
// admission policy.
func (team) Refs(ns, _ string) []framework.ObjectRef {
	return []framework.ObjectRef{
		{Kind: namespaceKind, Name: ns},
		{Kind: roleKind, Namespace: ns, Name: executorRole},
		{Kind: roleBindingKind, Namespace: ns, Name: executorRole},
		{Kind: roleKind, Namespace: ns, Name: memberRole},
		{Kind: roleBindingKind, Namespace: ns, Name: memberBinding},
		{Kind: policyKind, Name: policyName(ns)},
		{Kind: policyBindingKind, Name: policyName(ns)},
	}
}

// ModelRefs are the objects the model names: the workflow service account and the LocalQueues.
func (team) ModelRefs(m *teamModel) []framework.ObjectRef {
	ns := m.Namespace.ValueString()
	var refs []framework.ObjectRef
	if account := m.WorkflowServiceAccount.ValueString(); account != "" { // "" on import: see ImportRefs
		refs = append(refs, framework.ObjectRef{Kind: serviceAccountKind, Namespace: ns, Name: account})
	}
	for _, q := range slices.Sorted(maps.Keys(stringMap(context.Background(), m.LocalQueues, &diag.Diagnostics{}))) {
		refs = append(refs, framework.ObjectRef{Kind: queue.LocalQueueKind, Namespace: ns, Name: q})
	}
	return refs
}

// ImportRefs are the service account the executor RoleBinding names and the LocalQueues in the
// namespace: an imported team takes those that no other resource of the provider owns.
func (team) ImportRefs(ctx context.Context, c *kube.Client, m *teamModel) ([]framework.ObjectRef, error) {
	ns := m.Namespace.ValueString()
	var refs []framework.ObjectRef
	binding, err := c.Get(ctx, roleBindingKind, ns, executorRole)
	switch {
	case kube.IsNotFound(err):
	case err != nil:
		return nil, err
	default:
		var rb rbacv1.RoleBinding
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(binding.Object, &rb); err != nil {
			return nil, err
		}
		for _, s := range rb.Subjects {
			if s.Kind == rbacv1.ServiceAccountKind && s.Namespace == ns {
				refs = append(refs, framework.ObjectRef{Kind: serviceAccountKind, Namespace: ns, Name: s.Name})
			}
		}
	}
	list, err := c.List(ctx, queue.LocalQueueKind, ns, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, lq := range list.Items {
		refs = append(refs, framework.ObjectRef{Kind: queue.LocalQueueKind, Namespace: ns, Name: lq.GetName()})
	}
	return refs, nil
}

// Expand builds the team's objects, the namespace first. Every object carries meta's labels (with
// the team's billing labels, see OwnLabels); the namespace also the labels Kueue selects.
func (team) Expand(ctx context.Context, _ *framework.ProviderData, m *teamModel, meta framework.ObjectMeta) ([]framework.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	ns := meta.Namespace
	labels := meta.Labels
	nsLabels := merged(labels, stringMap(ctx, m.KueueNamespaceLabels, &diags))
	ann := meta.Annotations
	account := m.WorkflowServiceAccount.ValueString()
	refs := team{}.Refs(ns, meta.Name)
	objs := []framework.Object{
		{Ref: refs[0], Body: corev1ac.Namespace(ns).WithLabels(nsLabels).WithAnnotations(ann)},
		{Ref: framework.ObjectRef{Kind: serviceAccountKind, Namespace: ns, Name: account},
			Body: corev1ac.ServiceAccount(account, ns).WithLabels(labels).WithAnnotations(ann)},
		{Ref: refs[1], Body: rbacv1ac.Role(executorRole, ns).WithLabels(labels).WithAnnotations(ann).WithRules(executorRules()...)},
		{Ref: refs[2], Body: rbacv1ac.RoleBinding(executorRole, ns).WithLabels(labels).WithAnnotations(ann).
			WithRoleRef(rbacv1ac.RoleRef().WithAPIGroup("rbac.authorization.k8s.io").WithKind("Role").WithName(executorRole)).
			WithSubjects(rbacv1ac.Subject().WithKind("ServiceAccount").WithName(account).WithNamespace(ns))},
		{Ref: refs[3], Body: rbacv1ac.Role(memberRole, ns).WithLabels(labels).WithAnnotations(ann).WithRules(memberRules()...)},
	}
	groups, users := stringSet(ctx, m.MemberGroups, &diags), stringSet(ctx, m.MemberUsers, &diags)
	if len(groups)+len(users) > 0 {
		objs = append(objs, framework.Object{Ref: refs[4], Body: rbacv1ac.RoleBinding(memberBinding, ns).WithLabels(labels).
			WithAnnotations(ann).
			WithRoleRef(rbacv1ac.RoleRef().WithAPIGroup("rbac.authorization.k8s.io").WithKind("Role").WithName(memberRole)).
			WithSubjects(memberSubjects(groups, users)...)})
	}
	queues := stringMap(ctx, m.LocalQueues, &diags)
	for _, q := range slices.Sorted(maps.Keys(queues)) {
		objs = append(objs, framework.Object{
			Ref: framework.ObjectRef{Kind: queue.LocalQueueKind, Namespace: ns, Name: q},
			Body: kueueac.LocalQueue(q, ns).WithLabels(labels).WithAnnotations(ann).
				WithSpec(kueueac.LocalQueueSpec().WithClusterQueue(kueuev1beta2.ClusterQueueReference(queues[q]))),
		})
	}
	if m.RequireProjectLabel.ValueBool() {
		objs = append(objs,
			framework.Object{Ref: refs[5], Body: projectPolicy(ns, m.ProjectLabel.ValueString(), labels, ann)},
			framework.Object{Ref: refs[6], Body: projectPolicyBinding(ns, labels, ann)})
	}
	return objs, diags
}

// merged is a copy of base with extra's entries over it.
func merged(base, extra map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, extra)
	return out
}
