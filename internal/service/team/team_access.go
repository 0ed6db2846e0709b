package team

import (
	rbacv1 "k8s.io/api/rbac/v1"
	rbacv1ac "k8s.io/client-go/applyconfigurations/rbac/v1"
)

// What the team's members may do in its namespace: run Argo workflows from the templates
// Terraform writes and follow them to their pods, and see their place in Kueue's queues.
// Templates and cron workflows are read-only: Terraform owns them.
func memberRules() []*rbacv1ac.PolicyRuleApplyConfiguration {
	read := []string{"get", "list", "watch"}
	return []*rbacv1ac.PolicyRuleApplyConfiguration{
		// argo submit, argo stop/terminate/retry/resubmit (patch, create), argo delete.
		rbacv1ac.PolicyRule().WithAPIGroups("argoproj.io").WithResources("workflows").
			WithVerbs("get", "list", "watch", "create", "patch", "update", "delete"),
		rbacv1ac.PolicyRule().WithAPIGroups("argoproj.io").
			WithResources("workflowtemplates", "cronworkflows", "workflowtaskresults").WithVerbs(read...),
		rbacv1ac.PolicyRule().WithAPIGroups("").WithResources("pods", "pods/log", "events").WithVerbs(read...),
		rbacv1ac.PolicyRule().WithAPIGroups("kueue.x-k8s.io").
			WithResources("localqueues", "localqueues/status", "workloads", "workloads/status").WithVerbs(read...),
	}
}

// executorRules are what Argo's emissary executor needs, and no more: it reports each step's
// outputs as a WorkflowTaskResult (Argo v3.7 manifests/quick-start/base/executor/emissary/
// executor-role.yaml, "Recommended minimum permissions for the emissary executor").
func executorRules() []*rbacv1ac.PolicyRuleApplyConfiguration {
	return []*rbacv1ac.PolicyRuleApplyConfiguration{
		rbacv1ac.PolicyRule().WithAPIGroups("argoproj.io").WithResources("workflowtaskresults").WithVerbs("create", "patch"),
	}
}

// memberSubjects are the RoleBinding subjects for the member groups and users.
func memberSubjects(groups, users []string) []*rbacv1ac.SubjectApplyConfiguration {
	var out []*rbacv1ac.SubjectApplyConfiguration
	for _, g := range groups {
		out = append(out, rbacv1ac.Subject().WithKind(rbacv1.GroupKind).WithAPIGroup(rbacv1.GroupName).WithName(g))
	}
	for _, u := range users {
		out = append(out, rbacv1ac.Subject().WithKind(rbacv1.UserKind).WithAPIGroup(rbacv1.GroupName).WithName(u))
	}
	return out
}
