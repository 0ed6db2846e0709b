package argo

import (
	"context"
	"regexp"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

var (
	capacities = append(slices.Clone(capacity.CapacityTypes), capacityAny)
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	paramName  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)
	retryType  = map[string]attr.Type{"limit": types.Int64Type, "backoff": types.StringType}
)

func (trainingJobTemplate) Schema(ctx context.Context) schema.Schema {
	attrs := framework.NamespacedMetadataAttributes("WorkflowTemplate")
	attrs["queue"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Name of the Kueue LocalQueue in the namespace that admits the runs: the label `" + labelQueue +
			"` on every pod-creating template's `metadata.labels` (and `podMetadata`), which is where Kueue's pod " +
			"integration reads it. Before the template is written, the provider checks that Kueue could admit one " +
			"of its pods there: the LocalQueue exists, its ClusterQueue has a flavor whose nodes the pod selects " +
			"(`capacity`, GPU model) and tolerates, and one pod's request fits that flavor's nominal quota plus " +
			"borrowing limit. Refer to the queue resource (`mlplatform_local_queue.x.name`) so that it is created first. " +
			"At plan, a name the configuration does not declare in the namespace (by `mlplatform_local_queue` or a team's " +
			"`local_queues`) but one or two letters from one it does is refused as a misspelling. When the LocalQueue, " +
			"its ClusterQueue and every flavor that ClusterQueue names are all in the same configuration, the check " +
			"against the queue is made at plan too, on what they plan (by the template, or by whichever of them Terraform " +
			"plans last, naming the template); a queue of another configuration is checked only before writing. A queue " +
			"whose flavors that can take the pods are all spot capacity (`karpenter.sh/capacity-type=spot`) is a warning " +
			"when the template has no `checkpoint`: each spot reclaim would restart a run from zero. " +
			"Kueue v0.19 turns `waitForPodsReady` on by default: an admitted run whose pods are not all ready within 30 " +
			"minutes (a new GPU node's start, which Karpenter gives up on after 15 minutes unregistered, plus the image " +
			"pull) is evicted and requeued with backoff (60 s, doubling to an hour); raise `waitForPodsReady.timeout` in " +
			"Kueue's configuration for slow-starting GPU nodes or very large images.",
		Validators: []validator.String{framework.DNSSubdomain()}}
	attrs["priority_class"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Name of a Kueue WorkloadPriorityClass for the runs (label `" + labelPriority + "` on their pods).",
		Validators:          []validator.String{framework.DNSSubdomain()}}
	attrs["service_account"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "The service account the runs' pods run as (`spec.serviceAccountName`), e.g. " +
			"`mlplatform_team.x.workflow_service_account`, which has what Argo's executor needs. Omitted: the namespace's " +
			"`default` account, which then needs those permissions itself.",
		Validators: []validator.String{framework.DNSSubdomain()}}
	attrs["billing"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Billing labels (team, project, cost centre) for the runs' pods, merged over `labels_all`, so " +
			"GPU-hours can be summed per team. They are written on the pods, not on the WorkflowTemplate. Take the team's with " +
			"`merge(mlplatform_team.<t>.pod_labels, { (mlplatform_team.<t>.project_label) = \"<project>\" })`: when a " +
			"`mlplatform_team` of the same configuration requires a project label of its namespace's pods " +
			"(`require_project_label`), a template whose pods would lack it is refused at plan, since the team's admission " +
			"policy would refuse every run's pod.",
		Validators: framework.LabelMapValidators(mapvalidator.KeysAre(stringvalidator.NoneOf(labelQueue, labelPriority)))}
	attrs["image"] = schema.StringAttribute{Required: true,
		MarkdownDescription: "Container image of the trainer, e.g. `ghcr.io/acme/trainer:1.4`.",
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}}
	attrs["training_script"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Script run as `python <script>`. Exactly one of `training_script` and `command` is set.",
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}}
	attrs["command"] = schema.ListAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "The trainer's command as argv elements (no shell runs it), instead of `training_script`.",
		Validators:          []validator.List{listvalidator.SizeAtLeast(1)}}
	attrs["args"] = schema.ListAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Arguments after the command, each one argv element. `{{workflow.parameters.<name>}}` may " +
			"refer to the template's own parameters; any other `{{` is refused at plan."}
	attrs["env"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Environment variables of the trainer. Not for secrets: values are stored in the state and " +
			"the WorkflowTemplate. `" + envTrackingURI + "`, `" + envExperiment + "` and `" + envRunName + "` are set by " +
			"`tracking`, and `checkpoint.env_name` by `checkpoint`.",
		Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.RegexMatches(envName,
			"must be an environment variable name (letters, digits and `_`, not starting with a digit)"),
			stringvalidator.NoneOf(envTrackingURI, envExperiment, envRunName))}}
	attrs["dataset_version"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Default of the workflow parameter `dataset_version`, passed to the trainer as " +
			"`--dataset_version=<value>`; `argo submit -p dataset_version=...` overrides it."}
	attrs["hyperparameters"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Each entry becomes a workflow parameter with that default, overridable at submit (`-p " +
			"learning_rate=3e-4`), and reaches the trainer as one argv element `--<name>=<value>`, in name order.",
		Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.RegexMatches(paramName,
			"must be a parameter name (a letter, then letters, digits, `_` and `-`)"), stringvalidator.NoneOf(datasetParam))}}
	attrs["hardware"] = hardwareAttribute()
	attrs["capacity"] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(capacityAny),
		MarkdownDescription: "Which nodes may run the trainer: `spot`, `on-demand`, `reserved` (capacity reservations) or `any` (node selector on `" +
			capacity.LabelCapacityType + "`, so Kueue only picks flavors that match). Defaults to `any`. `spot` without " +
			"`checkpoint` is a warning at plan: each spot reclaim would restart a run from zero.",
		Validators: []validator.String{stringvalidator.OneOf(capacities...)}}
	attrs["checkpoint"] = checkpointAttribute()
	attrs["retry"] = retryAttribute()
	attrs["source"] = sourceAttribute()
	attrs["tracking"] = trackingAttribute()
	attrs["volumes"] = volumesAttribute()
	lifetimeAttributes(attrs)
	attrs["retry_expression"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The `retryStrategy.expression` the provider writes (with `retryPolicy: Always`), compiled " +
			"at plan with the expression language Argo evaluates it with. Read back from the cluster, so a retry " +
			"strategy changed outside Terraform shows as drift."}
	attrs["submit_command"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The command that submits a run of this template with its default parameters: " +
			"`argo submit --from workflowtemplate/<name> -n <namespace> -p <name>=<value> ...`."}
	attrs["submit_manifest"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The same run as `submit_command`, for engineers without the argo CLI: a Workflow (YAML) " +
			"whose `spec.workflowTemplateRef` names this template, with `generateName: <name>-` and the default " +
			"parameters in `spec.arguments`. Submit it with `kubectl create -f <file>` (not `apply`, which needs a " +
			"name); edit a parameter's value to override it."}
	attrs["resources"] = schema.MapAttribute{ElementType: types.StringType, Computed: true,
		MarkdownDescription: "The requests (and limits) of one training pod, by resource name: `cpu`, `memory` and " +
			"`nvidia.com/gpu` or `nvidia.com/mig-<profile>`."}
	return schema.Schema{
		MarkdownDescription: "A training job template: an Argo `WorkflowTemplate` (argoproj.io/v1alpha1) that ML engineers " +
			"submit with `argo submit --from workflowtemplate/<name>`. Its pods carry the Kueue queue, priority and billing " +
			"labels, ask for the GPUs `hardware` names, and are retried after an interruption (Kueue preemption, a " +
			"spot reclaim, a node drain) but never after a real failure (exit 1, OOMKilled); with `checkpoint` each " +
			"retry gets the same checkpoint path, so it resumes.\n\n" +
			"An ML engineer submits a run with the command in `submit_command`, overriding any parameter with `-p " +
			"<name>=<value>`. When Kueue preempts the run's pod (or a spot node is reclaimed), the pod is deleted and " +
			"Argo records `pod deleted`; the retry strategy creates a new pod of the same run, which Kueue gates and " +
			"admits again when quota is free, and which finds its checkpoints under the same path. A run whose " +
			"trainer exits 1 or is OOMKilled fails at once. Kueue manages the pods only in namespaces its " +
			"`managedJobsNamespaceSelector` selects (with the `pod` integration enabled).\n\n" +
			"Checked before anything is written: at plan, Argo's own validator (as `argo lint --offline`) runs on the " +
			"WorkflowTemplate apply would write, and a refusal names the attribute; the template is checked against " +
			"the queue it names before writing, and at plan when the queue is in the same configuration (see `queue`).",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func hardwareAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Required: true,
		MarkdownDescription: "What one training pod needs. Resolved at plan through the GPU catalog into resource requests and a node selector.",
		Attributes: map[string]schema.Attribute{
			"gpu_type": schema.StringAttribute{Optional: true,
				MarkdownDescription: "GPU model by any name the catalog accepts (`a100-80gb`, `H100`), optionally followed by " +
					"a MIG profile (`a100-1g.10gb`): whole GPUs are requested as `nvidia.com/gpu`, MIG instances as " +
					"`nvidia.com/mig-<profile>` (the mixed strategy). The pod selects nodes labelled `" + capacity.LabelGPU +
					"` with the model (as GPU node pools label theirs) and tolerates their `" + capacity.TaintGPU + "` taint. " +
					"Omit for a CPU-only job."},
			"gpu_count": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(1),
				MarkdownDescription: "GPUs (or MIG instances) per pod, at most what one node of the model can hold. Defaults to 1.",
				Validators:          []validator.Int64{int64validator.AtLeast(1), int64validator.AlsoRequires(path.MatchRelative().AtParent().AtName("gpu_type"))}},
			"cpu_cores": schema.Int64Attribute{Required: true,
				MarkdownDescription: "CPU cores per pod (requests and limits). With `gpu_type`, a pod that no EC2 instance type " +
					"of the model can hold (with memory_gb, beside its GPUs; what Karpenter expects the node to offer pods) is " +
					"refused at plan.",
				Validators: []validator.Int64{int64validator.Between(1, 512)}},
			"memory_gb": schema.Int64Attribute{Required: true,
				MarkdownDescription: "Memory per pod in GiB (requests and limits); like `cpu_cores`, checked at plan against the " +
					"GPU model's instance types.",
				Validators: []validator.Int64{int64validator.Between(1, 8192)}},
			"shm_size_gb": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Size in GiB of an in-memory `/dev/shm` (PyTorch data loaders need more than the " +
					"container default of 64 MiB). It counts against `memory_gb`.",
				Validators: []validator.Int64{int64validator.Between(1, 8192)}},
		}}
}

func checkpointAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Where the trainer checkpoints, so that a retried pod resumes instead of starting over. " +
			"Without it, a template on spot capacity (`capacity = \"spot\"`, or a queue of the same configuration whose " +
			"flavors that can take its pods are all spot) is a warning at plan.",
		Attributes: map[string]schema.Attribute{
			"uri": schema.StringAttribute{Required: true,
				MarkdownDescription: "Durable storage for checkpoints (`s3://bucket/prefix`, `gs://...`). The trainer gets " +
					"`<uri>/<namespace>/<workflow name>`: the same path on every retry of a run, a new one per run.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"env_name": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("CHECKPOINT_DIR"),
				MarkdownDescription: "Environment variable that carries the checkpoint path. Defaults to `CHECKPOINT_DIR`.",
				Validators: []validator.String{stringvalidator.RegexMatches(envName,
					"must be an environment variable name (letters, digits and `_`, not starting with a digit)")}},
			"termination_grace_period": schema.StringAttribute{Optional: true, Computed: true,
				Default: stringdefault.StaticString(defaultGraceTime),
				MarkdownDescription: "Time between SIGTERM and SIGKILL, for a trainer that saves a checkpoint on SIGTERM " +
					"(`terminationGracePeriodSeconds`). Defaults to `120s`, the spot interruption notice. Under Kueue v0.19's " +
					"`waitForPodsReady` (on by default) the replacement pod of a retry must be ready within its " +
					"`recoveryTimeout` (the 30-minute timeout unless set) of the pod going unready: this grace, a new " +
					"node's start and the image pull all count against it.",
				Validators: []validator.String{durationValidator{min: time.Second}}},
		}}
}

func retryAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Optional: true, Computed: true,
		Default: objectdefault.StaticValue(types.ObjectValueMust(retryType, map[string]attr.Value{
			"limit": types.Int64Value(10), "backoff": types.StringNull()})),
		MarkdownDescription: "How interrupted runs are retried. Only interruptions are: `pod deleted` (Kueue preemption, a " +
			"node drain), imminent node shutdown (spot reclaim), eviction when the node is low on a resource, and exit " +
			"137 or 143 without OOMKilled. Exit 1 and OOMKilled are final. Defaults to `{ limit = 10 }`.",
		Attributes: map[string]schema.Attribute{
			"limit": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(10),
				MarkdownDescription: "Most retries of one run. Defaults to 10.",
				Validators:          []validator.Int64{int64validator.Between(0, 1000)}},
			"backoff": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Wait before the first retry, as a duration (`30s`); each next wait doubles. None when unset.",
				Validators:          []validator.String{durationValidator{min: time.Second}}},
		}}
}
