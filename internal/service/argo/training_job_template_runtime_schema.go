package argo

import (
	"time"

	"regexp"
	"strings"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Attributes for where the code comes from, experiment tracking, datasets and run lifetime.

var absolutePath = regexp.MustCompile(`^/[^:]*$`)

func sourceAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Git repository with the training code, checked out by Argo (a git input artifact) into `" +
			sourcePath + "`, the trainer's working directory.",
		Attributes: map[string]schema.Attribute{
			"git_repo": schema.StringAttribute{Required: true,
				MarkdownDescription: "Repository URL, e.g. `git@github.com:acme/models.git` or `https://github.com/acme/models.git`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}},
			"revision": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("main"),
				MarkdownDescription: "Branch, tag or commit to check out. Defaults to `main`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}},
			"ssh_private_key_secret": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The Secret in the template's namespace that holds the SSH deploy key; only its " +
					"name and key are stored, never the key itself.",
				Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the Secret.",
						Validators: []validator.String{framework.DNSSubdomain()}},
					"key": schema.StringAttribute{Required: true, MarkdownDescription: "Key of the Secret holding the private key.",
						Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[-._a-zA-Z0-9]+$`),
							"must be a Secret key (letters, digits, `-`, `_` and `.`)")}},
				}},
		}}
}

func trackingAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "MLflow tracking: the trainer gets `" + envTrackingURI + "`, `" + envExperiment +
			"` (when set) and `" + envRunName + "` = the workflow's name.",
		Attributes: map[string]schema.Attribute{
			"uri": schema.StringAttribute{Required: true, MarkdownDescription: "MLflow tracking server URI.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"experiment": schema.StringAttribute{Optional: true, MarkdownDescription: "MLflow experiment name.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		}}
}

func volumesAttribute() schema.Attribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Dataset PersistentVolumeClaims (ReadWriteMany or ReadOnlyMany) mounted read-only.",
		Validators:          []validator.List{listvalidator.SizeAtMost(16)},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"claim_name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the PersistentVolumeClaim in the template's namespace.",
				Validators:          []validator.String{framework.DNSSubdomain()}},
			"mount_path": schema.StringAttribute{Required: true,
				MarkdownDescription: "Absolute path where the trainer sees it.",
				Validators: []validator.String{
					stringvalidator.RegexMatches(absolutePath, "must be an absolute path without `:`"),
					stringvalidator.NoneOf("/dev/shm", sourcePath),
				}},
		}}}
}

func lifetimeAttributes(attrs map[string]schema.Attribute) {
	attrs["active_deadline"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "Longest a run may take, as a duration (`48h`), after which Argo fails it " +
			"(`activeDeadlineSeconds`). It counts the time the run waits in Kueue's queue too.",
		Validators: []validator.String{durationValidator{min: time.Second}}}
	attrs["ttl_after_finished"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "How long a finished run is kept before Argo deletes it with its pods, as a duration " +
			"(`ttlStrategy.secondsAfterCompletion`). Kept until deleted when unset.",
		Validators: []validator.String{durationValidator{min: time.Second}}}
	attrs["pod_gc"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "When Argo deletes the runs' pods (`podGC.strategy`): " + strings.Join(podGCStrategies, ", ") +
			". Unset keeps them (and their logs) until the run is deleted. `OnPodSuccess` keeps failed pods for debugging.",
		Validators: []validator.String{stringvalidator.OneOf(podGCStrategies...)}}
}

var podGCStrategies = []string{string(wfv1.PodGCOnPodCompletion), string(wfv1.PodGCOnPodSuccess),
	string(wfv1.PodGCOnWorkflowCompletion), string(wfv1.PodGCOnWorkflowSuccess)}
