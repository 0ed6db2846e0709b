package validate

import (
	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// copiedKind is a custom resource kind the provider writes whose CRD is a YAML file upstream,
// copied into crds/ (see each service group's kinds.go for what it writes).
type copiedKind struct {
	schema.GroupKind
	Resource string // the plural, which names the file
}

// file is the CRD's file name, upstream and in crds/.
func (k copiedKind) file() string { return k.Group + "_" + k.Resource + ".yaml" }

var (
	kueueGroup = kueuev1beta2.SchemeGroupVersion.Group
	argoGroup  = workflow.Group
)

// copiedKinds are the kinds whose CRDs crds/ holds. Karpenter's NodePool, NodeOverlay and
// EC2NodeClass are not among them: the AWS provider's Go module embeds its CRDs.
var copiedKinds = []copiedKind{
	{schema.GroupKind{Group: kueueGroup, Kind: "ResourceFlavor"}, "resourceflavors"},
	{schema.GroupKind{Group: kueueGroup, Kind: "ClusterQueue"}, "clusterqueues"},
	{schema.GroupKind{Group: kueueGroup, Kind: "LocalQueue"}, "localqueues"},
	{schema.GroupKind{Group: kueueGroup, Kind: "Cohort"}, "cohorts"},
	{schema.GroupKind{Group: kueueGroup, Kind: "WorkloadPriorityClass"}, "workloadpriorityclasses"},
	{schema.GroupKind{Group: kueueGroup, Kind: "Topology"}, "topologies"},
	{schema.GroupKind{Group: kueueGroup, Kind: "AdmissionCheck"}, "admissionchecks"},
	{schema.GroupKind{Group: kueueGroup, Kind: "ProvisioningRequestConfig"}, "provisioningrequestconfigs"},
	{schema.GroupKind{Group: kueueGroup, Kind: "MultiKueueConfig"}, "multikueueconfigs"},
	{schema.GroupKind{Group: kueueGroup, Kind: "MultiKueueCluster"}, "multikueueclusters"},
	{schema.GroupKind{Group: argoGroup, Kind: workflow.WorkflowTemplateKind}, workflow.WorkflowTemplatePlural},
	{schema.GroupKind{Group: argoGroup, Kind: workflow.CronWorkflowKind}, workflow.CronWorkflowPlural},
	{schema.GroupKind{Group: monitoringv1.SchemeGroupVersion.Group, Kind: monitoringv1.PrometheusRuleKind}, monitoringv1.PrometheusRuleName},
}

// CopiedCRDFiles are the names of the CRD files crds/ holds, as upstream names them; `go
// generate` refreshes them from the module cache.
func CopiedCRDFiles() []string {
	out := make([]string, len(copiedKinds))
	for i, k := range copiedKinds {
		out[i] = k.file()
	}
	return out
}
