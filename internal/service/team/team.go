package team

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

type teamModel struct {
	framework.NamespacedMetadata
	CostCentre             types.String `tfsdk:"cost_centre"`
	KueueNamespaceLabels   types.Map    `tfsdk:"kueue_namespace_labels"`
	LocalQueues            types.Map    `tfsdk:"local_queues"`
	MemberGroups           types.Set    `tfsdk:"member_groups"`
	MemberUsers            types.Set    `tfsdk:"member_users"`
	WorkflowServiceAccount types.String `tfsdk:"workflow_service_account"`
	RequireProjectLabel    types.Bool   `tfsdk:"require_project_label"`
	ProjectLabel           types.String `tfsdk:"project_label"`
	ForceDestroy           types.Bool   `tfsdk:"force_destroy"`
	PodLabels              types.Map    `tfsdk:"pod_labels"`
	LocalQueueNames        types.List   `tfsdk:"local_queue_names"`
}

type team struct{}

// The cycle finds these hooks by type assertion; these make a signature mismatch a compile error.
var (
	_ framework.ModelRefs[teamModel]       = team{}
	_ framework.ImportLister[teamModel]    = team{}
	_ framework.DestroyChecker[teamModel]  = team{}
	_ framework.PreApplyChecker[teamModel] = team{}
	_ framework.PlanModifier               = team{}
	_ framework.OwnLabeler[teamModel]      = team{}
)

// NewTeamResource is mlplatform_team.
func NewTeamResource() resource.Resource {
	return framework.NewMultiResource[teamModel](team{})
}

func (team) TypeSuffix() string { return "team" }

func (team) Schema(ctx context.Context) schema.Schema {
	attrs := framework.NamespacedMetadataAttributes("team")
	attrs["name"] = schema.StringAttribute{Required: true,
		MarkdownDescription: "The team's name, e.g. `nlp`: the value of its `" + LabelTeam + "` billing label, and its " +
			"namespace's name unless `namespace` is set. Changing it replaces the team.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:    []validator.String{framework.DNSLabel()},
	}
	attrs["namespace"] = schema.StringAttribute{Optional: true, Computed: true,
		MarkdownDescription: "The team's namespace, which the team creates and owns: it must not exist (the provider " +
			"never takes over an existing namespace; import the team instead). Defaults to `name`. Changing it replaces " +
			"the team.",
		PlanModifiers: []planmodifier.String{namespaceFromName{}, stringplanmodifier.RequiresReplace()},
		Validators:    []validator.String{framework.DNSLabel()},
	}
	attrs["id"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "`<namespace>/<name>` of the team; the import ID.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	labels := attrs["labels"].(schema.MapAttribute)
	labels.MarkdownDescription = "Labels of every object of the team (`metadata.labels`), merged over the provider's " +
		"`default_labels`; the team's billing labels (`" + LabelTeam + "`, `" + LabelCostCentre + "`) are written over " +
		"both, and are refused here. Labels that other tools add are left alone and cause no diff."
	labels.Validators = append(labels.Validators, mapvalidator.KeysAre(stringvalidator.NoneOf(LabelTeam, LabelCostCentre)))
	attrs["labels"] = labels
	attrs["cost_centre"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "The team's cost centre: the `" + LabelCostCentre + "` billing label on its namespace and " +
			"objects, and in `pod_labels`.",
		Validators: []validator.String{framework.LabelValue(), stringvalidator.LengthAtLeast(1)},
	}
	attrs["kueue_namespace_labels"] = schema.MapAttribute{ElementType: types.StringType, Optional: true, Computed: true,
		Default: mapdefault.StaticValue(types.MapValueMust(types.StringType, map[string]attr.Value{
			defaultKueueManagedLabel: types.StringValue("true")})),
		MarkdownDescription: "Labels on the namespace that Kueue's `managedJobsNamespaceSelector` selects, so that " +
			"Kueue queues the team's pods (Argo's workflow pods are plain pods, managed by Kueue's `pod` integration) " +
			"and Jobs. Defaults to `{ \"" + defaultKueueManagedLabel + "\" = \"true\" }`: point Kueue's configuration at " +
			"it (`managedJobsNamespaceSelector: { matchLabels: { " + defaultKueueManagedLabel + ": \"true\" } }`), or " +
			"set the labels your configuration selects.",
		Validators: framework.LabelMapValidators(),
	}
	attrs["local_queues"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "The team's Kueue LocalQueues in its namespace: queue name => the ClusterQueue it feeds, e.g. " +
			"`{ training = mlplatform_cluster_queue.nlp.name }`. ML engineers submit to a queue by name (the " +
			"`queue` of `mlplatform_training_job_template`). Before writing, the apply checks that each ClusterQueue's " +
			"`namespace_selector` selects the team's namespace, since Kueue would otherwise leave its workloads " +
			"inadmissible. Kueue forbids moving a LocalQueue to another ClusterQueue: to move one, rename it (the old one " +
			"is deleted, the new one created).",
		Validators: []validator.Map{
			mapvalidator.KeysAre(framework.DNSSubdomain()),
			mapvalidator.ValueStringsAre(framework.DNSSubdomain()),
		},
	}
	attrs["member_groups"] = schema.SetAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Groups (as your cluster's authentication names them, e.g. an IdP group mapped by EKS access " +
			"entries) bound to the role `" + memberRole + "` in the team's namespace: submit, watch, stop and delete " +
			"Argo workflows, read workflow templates and cron workflows, pods, their logs and events, and the Kueue " +
			"LocalQueues and Workloads (the queue status). Not: edit templates (Terraform owns them), secrets, or RBAC.",
		Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
	}
	attrs["member_users"] = schema.SetAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Users bound to the role `" + memberRole + "`, like `member_groups`.",
		Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
	}
	attrs["workflow_service_account"] = schema.StringAttribute{Optional: true, Computed: true,
		Default: stringdefault.StaticString(defaultWorkflowAccount),
		MarkdownDescription: "The service account the team's workflow pods run as, created in its namespace with only " +
			"what Argo's executor needs (the role `" + executorRole + "`: create and patch `workflowtaskresults`, Argo's " +
			"recommended minimum for the emissary executor). Give it to `mlplatform_training_job_template`'s " +
			"`service_account`. Defaults to `" + defaultWorkflowAccount + "`.",
		Validators: []validator.String{framework.DNSSubdomain()},
	}
	attrs["require_project_label"] = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
		MarkdownDescription: "Refuse, at admission, a pod created in the team's namespace without a non-empty " +
			"`project_label`, so that every GPU-hour can be billed to a project. A ValidatingAdmissionPolicy " +
			"(admissionregistration.k8s.io/v1, built into Kubernetes 1.30+) and its binding, both named `" + policyPrefix +
			"<namespace>`, enforce it in the API server; the refusal names the label. Pods that exist are not touched. " +
			"A `mlplatform_training_job_template` of the same configuration in the namespace whose pods would lack the label " +
			"is refused at plan. Defaults to `true`.",
	}
	attrs["project_label"] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultProjectLabel),
		MarkdownDescription: "The pod label that names the project a pod's GPU-hours are billed to. Defaults to `" +
			defaultProjectLabel + "`; `mlplatform_gpu_billing_rules` reads the same key.",
		Validators: []validator.String{framework.QualifiedName()},
	}
	attrs["force_destroy"] = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "Destroying a team deletes its namespace, and Kubernetes deletes everything in it. Unless this " +
			"is `true`, the destroy is refused when Terraform plans it, so nothing of the configuration is deleted, while " +
			"the namespace holds what the team did not write (e.g. ConfigMaps, Secrets, Argo workflows or jobs made with " +
			"kubectl or by other tools; objects of this provider's resources destroyed in the same run do not count) or " +
			"workloads that hold quota in Kueue (admitted and not finished): the refusal names them (`Kind " +
			"namespace/name`, sorted). Not counted: objects being deleted, objects with an owner (`ownerReferences`; " +
			"the owner is counted when it is in the namespace), Events, and what Kubernetes writes into every namespace " +
			"(the ConfigMap `kube-root-ca.crt`, the ServiceAccount `default`). A destroy that cannot look (e.g. the " +
			"provider's credentials may not list one of the namespace's resource types) is refused too, naming what it " +
			"could not list. The check runs again when the team is deleted, counting then everything the team did not " +
			"write. With `true` nothing is checked: the namespace is deleted with everything in it, and the destroy " +
			"waits until it is gone. Set it in an apply before the destroy. Defaults to `false`.",
	}
	attrs["pod_labels"] = schema.MapAttribute{ElementType: types.StringType, Computed: true,
		MarkdownDescription: "The billing labels every pod of the team should carry (`" + LabelTeam + "`, and `" +
			LabelCostCentre + "` when set), known at plan: merge them with a project label into a training template's " +
			"`billing`. The namespace carries them too, which is what the billing rules read.",
	}
	attrs["local_queue_names"] = schema.ListAttribute{ElementType: types.StringType, Computed: true,
		MarkdownDescription: "The names of the team's LocalQueues, sorted, known at plan.",
	}
	return schema.Schema{
		MarkdownDescription: "A team on the GPU platform: its namespace (created and owned, with the team's billing labels " +
			"and the label Kueue selects), its Kueue LocalQueues, access for its members and for its workflow pods, and " +
			"a ValidatingAdmissionPolicy that makes every pod in the namespace name the project it is billed to. " +
			"Destroying a team deletes its namespace with everything in it, so it is refused, at plan, while the namespace " +
			"holds anything the team did not write or workloads that hold quota, unless `force_destroy` is set.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}
