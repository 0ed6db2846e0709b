package team

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// CheckBeforeApply checks, before anything is written, that each ClusterQueue the team's
// LocalQueues feed admits the team's namespace: Kueue leaves the workloads of a namespace its
// namespaceSelector does not select inadmissible, which users otherwise find only when a run
// never starts. A ClusterQueue that does not exist yet is a warning: Kueue waits for it.
func (team) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *teamModel) diag.Diagnostics {
	c := pd.Client
	var diags diag.Diagnostics
	ns := m.Namespace.ValueString()
	nsLabels := labels.Set(merged(stringMap(ctx, m.LabelsAll, &diags), stringMap(ctx, m.KueueNamespaceLabels, &diags)))
	nsLabels[labelNamespaceName] = ns
	queues := stringMap(ctx, m.LocalQueues, &diags)
	for _, q := range slices.Sorted(maps.Keys(queues)) {
		at := path.Root("local_queues").AtMapKey(q)
		obj, err := c.Get(ctx, queue.ClusterQueueKind, "", queues[q])
		if kube.IsNotFound(err) {
			diags.AddAttributeWarning(at, "ClusterQueue "+queues[q]+" does not exist",
				"LocalQueue "+ns+"/"+q+" feeds ClusterQueue "+queues[q]+", which does not exist (yet): Kueue admits nothing "+
					"from the queue until it does.")
			continue
		}
		if err != nil {
			diags.AddAttributeError(at, "Reading ClusterQueue "+queues[q], err.Error())
			continue
		}
		var cq kueuev1beta2.ClusterQueue
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &cq); err != nil {
			diags.AddAttributeError(at, "Decoding ClusterQueue "+queues[q], err.Error())
			continue
		}
		if why := refusesNamespace(cq.Spec.NamespaceSelector, nsLabels); why != "" {
			diags.AddAttributeError(at, "ClusterQueue "+queues[q]+" does not admit namespace "+ns,
				"LocalQueue "+ns+"/"+q+" would feed ClusterQueue "+queues[q]+", but "+why+", so Kueue would leave every "+
					"workload of the queue inadmissible. Widen the ClusterQueue's `namespace_selector` (e.g. match the "+
					"label "+LabelTeam+"="+m.Name.ValueString()+" that the team's namespace carries), or point the queue "+
					"at another ClusterQueue. Nothing was written.")
		}
	}
	return diags
}

// refusesNamespace says why a ClusterQueue's namespaceSelector does not select a namespace with
// these labels ("" when it does). Kueue selects no namespace with a nil selector, every one with
// an empty one.
func refusesNamespace(selector *metav1.LabelSelector, ns labels.Set) string {
	if selector == nil {
		return "it has no namespaceSelector, which selects no namespace"
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return "its namespaceSelector is invalid: " + err.Error()
	}
	if !sel.Matches(ns) {
		return "its namespaceSelector (" + sel.String() + ") does not select the namespace's labels (" + ns.String() + ")"
	}
	return ""
}
