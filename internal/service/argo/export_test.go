package argo

// Exported for the package's external (acceptance) tests.
var (
	WorkflowTemplateKind = workflowTemplateKind
	CronWorkflowKind     = cronWorkflowKind
	RetryExpression      = retryExpression
)
