// Package argo holds the resources for Argo Workflows (argoproj.io/v1alpha1): training job
// templates, written as WorkflowTemplates that ML engineers submit with a few parameters, and
// training schedules, written as CronWorkflows that run them.
package argo

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var workflowTemplateKind = kube.Kind{
	GVR:        wfv1.SchemeGroupVersion.WithResource(workflow.WorkflowTemplatePlural),
	Kind:       workflow.WorkflowTemplateKind,
	Namespaced: true,
	Requires:   "Argo Workflows v3.5 or newer (argoproj.io/v1alpha1 WorkflowTemplate)",
}

func workflowTemplateGVK() schema.GroupVersionKind {
	return wfv1.SchemeGroupVersion.WithKind(workflow.WorkflowTemplateKind)
}

var cronWorkflowKind = kube.Kind{
	GVR:        wfv1.SchemeGroupVersion.WithResource(workflow.CronWorkflowPlural),
	Kind:       workflow.CronWorkflowKind,
	Namespaced: true,
	Requires:   "Argo Workflows v3.6 or newer (argoproj.io/v1alpha1 CronWorkflow with spec.schedules)",
}

func cronWorkflowGVK() schema.GroupVersionKind {
	return wfv1.SchemeGroupVersion.WithKind(workflow.CronWorkflowKind)
}
