package team

// Label keys and object names a team writes.
const (
	// LabelTeam and LabelCostCentre are the billing labels on the team's namespace and objects,
	// and in pod_labels: what the billing rules sum GPU-hours by.
	LabelTeam       = "mlplatform.io/team"
	LabelCostCentre = "mlplatform.io/cost-centre"
	// defaultProjectLabel is the pod label the admission policy requires by default.
	defaultProjectLabel = "mlplatform.io/project"
	// defaultKueueManagedLabel is what a Kueue configuration's managedJobsNamespaceSelector is
	// pointed at (see the docs), so that Kueue queues the team's plain pods and Jobs too.
	defaultKueueManagedLabel = "mlplatform.io/kueue-managed"
	// labelNamespaceName is set by the API server on every namespace.
	labelNamespaceName = "kubernetes.io/metadata.name"

	memberRole               = "mlplatform-team-member"
	memberBinding            = "mlplatform-team-members"
	executorRole             = "mlplatform-workflow-executor"
	defaultWorkflowAccount   = "training-workflow"
	policyPrefix             = "mlplatform-require-project-"
	projectLabelVariable     = "projectLabel"
	projectLabelVariableExpr = "variables." + projectLabelVariable
)

// policyName is the name of the admission policy and its binding for namespace ns: cluster-scoped,
// so named after the namespace, which is unique.
func policyName(ns string) string { return policyPrefix + ns }
