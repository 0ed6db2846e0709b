package team

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// maxNamed bounds how many objects a refusal names; the others are counted.
const maxNamed = 20

// destroyRemedy is what to do about a refused destroy.
const destroyRemedy = "set `force_destroy = true` on the team, apply, and destroy: the namespace is then deleted " +
	"with everything in it. Nothing was deleted."

// CheckDestroy refuses to destroy the team while deleting its namespace would delete what the
// team did not write (owns tells what it did) or workloads that hold quota, and when it cannot
// tell; force_destroy skips the check.
func (team) CheckDestroy(ctx context.Context, c *kube.Client, m *teamModel, owns func(*unstructured.Unstructured) bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.ForceDestroy.ValueBool() {
		return diags
	}
	name, ns := m.Name.ValueString(), m.Namespace.ValueString()
	lost, err := wouldLose(ctx, c, ns, owns)
	if len(lost) > 0 {
		diags.AddError("Destroying team "+name+" would delete what it did not write",
			"Destroying a team deletes its namespace "+ns+" and everything in it, and the namespace holds what the team "+
				"did not write: "+named(lost)+".\n\nMove or delete them, then destroy again; or "+destroyRemedy)
	}
	if err != nil {
		diags.AddError("Cannot tell what destroying team "+name+" would delete",
			"Destroying a team deletes its namespace "+ns+" and everything in it, so the destroy first looks there for what "+
				"the team did not write and for workloads that hold quota in Kueue, and it could not look:\n\n"+err.Error()+
				"\n\nWhat it cannot see may be lost. Grant the provider's credentials what the errors name, then destroy "+
				"again; or "+destroyRemedy)
	}
	return diags
}

// wouldLose names, sorted as "Kind namespace/name", what deleting namespace ns would delete that
// owns does not accept, and the Workloads there that hold quota; nothing when the destroy would
// not delete the namespace (gone, not the team's, or being deleted already). The error says what
// it could not look at, and comes with what it could.
func wouldLose(ctx context.Context, c *kube.Client, ns string, owns func(*unstructured.Unstructured) bool) ([]string, error) {
	namespace, err := c.Get(ctx, namespaceKind, "", ns)
	if kube.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !owns(namespace) || namespace.GetDeletionTimestamp() != nil {
		return nil, nil
	}
	objs, err := c.NamespaceContents(ctx, ns, isEvents)
	lost := map[string]string{}
	workloads := false
	for _, obj := range objs {
		gvk := obj.GroupVersionKind()
		workloads = workloads || (gvk.Group == queue.WorkloadKind.GVR.Group && gvk.Kind == queue.WorkloadKind.Kind)
		// Skipped: what goes anyway (being deleted), what goes with its owner (named itself when it
		// is in the namespace), and what Kubernetes puts in every namespace.
		if owns(obj) || obj.GetDeletionTimestamp() != nil || len(obj.GetOwnerReferences()) > 0 || kubernetesDefault(obj) {
			continue
		}
		lost[objectName(gvk.Kind, obj.GetNamespace(), obj.GetName())] = ""
	}
	// With no Workload in the namespace (Kueue may not even be installed), none holds quota there.
	if workloads {
		holding, herr := queue.HoldingQuota(ctx, c, ns)
		for _, wl := range holding {
			if wl.DeletionTimestamp == nil {
				lost[objectName(queue.WorkloadKind.Kind, wl.Namespace, wl.Name)] = " (holds quota in ClusterQueue " +
					string(wl.Status.Admission.ClusterQueue) + ")"
			}
		}
		err = errors.Join(err, herr)
	}
	out := make([]string, 0, len(lost))
	for _, k := range slices.Sorted(maps.Keys(lost)) {
		out = append(out, k+lost[k])
	}
	return out, err
}

// isEvents are the types of Events (core/v1 and events.k8s.io, one store): Kubernetes records
// them in every namespace, and they mean nothing once it is gone. Not even listed: there are many.
func isEvents(k kube.Kind) bool {
	return k.GVR.Resource == "events" && (k.GVR.Group == "" || k.GVR.Group == "events.k8s.io")
}

// kubernetesDefault reports whether obj is one kube-controller-manager writes into every
// namespace: the cluster's CA bundle and the default service account. Kept small on purpose:
// anything else may be someone's work.
func kubernetesDefault(obj *unstructured.Unstructured) bool {
	gvk := obj.GroupVersionKind()
	if gvk.Group != "" {
		return false
	}
	return (gvk.Kind == "ConfigMap" && obj.GetName() == "kube-root-ca.crt") ||
		(gvk.Kind == serviceAccountKind.Kind && obj.GetName() == "default")
}

func objectName(kind, ns, name string) string { return kind + " " + ns + "/" + name }

// named lists names, up to maxNamed, and counts the rest.
func named(names []string) string {
	if len(names) <= maxNamed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxNamed], ", ") + " and " + strconv.Itoa(len(names)-maxNamed) + " more"
}
