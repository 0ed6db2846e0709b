package argo

import (
	"context"
	"fmt"
	"regexp"
	"time"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type trainingScheduleModel struct {
	framework.NamespacedMetadata
	Template                   types.String `tfsdk:"template"`
	Schedules                  types.List   `tfsdk:"schedules"`
	Timezone                   types.String `tfsdk:"timezone"`
	ConcurrencyPolicy          types.String `tfsdk:"concurrency_policy"`
	StartingDeadline           types.String `tfsdk:"starting_deadline"`
	SuccessfulJobsHistoryLimit types.Int64  `tfsdk:"successful_jobs_history_limit"`
	FailedJobsHistoryLimit     types.Int64  `tfsdk:"failed_jobs_history_limit"`
	Suspend                    types.Bool   `tfsdk:"suspend"`
	Parameters                 types.Map    `tfsdk:"parameters"`
}

type trainingSchedule struct{}

// The cycle finds this hook by type assertion; this makes a signature mismatch a compile error.
var _ framework.PreApplyChecker[trainingScheduleModel] = trainingSchedule{}

// NewTrainingScheduleResource is mlplatform_training_schedule.
func NewTrainingScheduleResource() resource.Resource {
	return framework.NewResource[trainingScheduleModel](trainingSchedule{})
}

func (trainingSchedule) Kind() kube.Kind    { return cronWorkflowKind }
func (trainingSchedule) TypeSuffix() string { return "training_schedule" }

// What Argo does when the CronWorkflow leaves a field out (workflow/cron/operator.go).
const (
	argoSuccessfulHistory = 3
	argoFailedHistory     = 1
	// A CronWorkflow's runs are named <name>-<unix time>, which must fit in 63 characters.
	maxCronWorkflowName = 52
)

var (
	concurrencyPolicies = []string{string(wfv1.AllowConcurrent), string(wfv1.ForbidConcurrent), string(wfv1.ReplaceConcurrent)}
	// Matches a string without `{{`.
	noTemplate = regexp.MustCompile(`^(?s:[^{]|\{[^{])*\{?$`)
)

func (trainingSchedule) Schema(ctx context.Context) schema.Schema {
	attrs := framework.NamespacedMetadataAttributes("CronWorkflow")
	name := attrs["name"].(schema.StringAttribute)
	name.MarkdownDescription += fmt.Sprintf(" At most %d characters: Argo names each run `<name>-<unix time>`.", maxCronWorkflowName)
	name.Validators = append(name.Validators, stringvalidator.LengthAtMost(maxCronWorkflowName))
	attrs["name"] = name
	attrs["template"] = schema.StringAttribute{Required: true,
		MarkdownDescription: "Name of the WorkflowTemplate in the same namespace that each run starts from " +
			"(`spec.workflowSpec.workflowTemplateRef.name`), e.g. `mlplatform_training_job_template.x.name`. The " +
			"runs' pods carry the template's queue, priority and billing labels; the schedule adds none. Checked before " +
			"the CronWorkflow is written: the template must exist.",
		Validators: []validator.String{framework.DNSSubdomain()}}
	attrs["schedules"] = schema.ListAttribute{ElementType: types.StringType, Required: true,
		MarkdownDescription: "When to start a run: cron schedules of five fields (`0 2 * * *`) or descriptors (`@daily`, " +
			"`@every 6h`), parsed at plan as Argo's cron controller parses them; a run starts at each time any of " +
			"them names. Without a timezone prefix: `timezone` applies to all. Fields are numbers (`0 2 * * 1`, not " +
			"`MON`) and `@every` takes whole numbers (`@every 90m`, not `1.5h`): Argo Workflows v4's CRD refuses " +
			"the others, and so does the plan.",
		Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(cronValidator{})}}
	attrs["timezone"] = schema.StringAttribute{Required: true,
		MarkdownDescription: "IANA timezone the schedules are read in, e.g. `Europe/Berlin` or `UTC`. Required, since " +
			"Argo would otherwise use the controller's local time.",
		Validators: []validator.String{timezoneValidator{}}}
	attrs["concurrency_policy"] = schema.StringAttribute{Optional: true, Computed: true,
		Default: stringdefault.StaticString(string(wfv1.ForbidConcurrent)),
		MarkdownDescription: "What happens when a run is due while the previous one is still running (or queued in " +
			"Kueue): `Forbid` skips the new run, `Replace` stops the running one, `Allow` runs both. Defaults to `Forbid`.",
		Validators: []validator.String{stringvalidator.OneOf(concurrencyPolicies...)}}
	attrs["starting_deadline"] = schema.StringAttribute{Optional: true,
		MarkdownDescription: "How late a missed run (the controller was down) may still start, as a duration (`1h`) " +
			"(`startingDeadlineSeconds`). Missed runs are skipped when unset.",
		Validators: []validator.String{durationValidator{min: time.Second}}}
	attrs["successful_jobs_history_limit"] = schema.Int64Attribute{Optional: true, Computed: true,
		Default:             int64default.StaticInt64(argoSuccessfulHistory),
		MarkdownDescription: fmt.Sprintf("How many succeeded runs Argo keeps; older ones are deleted. Defaults to %d.", argoSuccessfulHistory),
		Validators:          []validator.Int64{int64validator.Between(0, 1000)}}
	attrs["failed_jobs_history_limit"] = schema.Int64Attribute{Optional: true, Computed: true,
		Default:             int64default.StaticInt64(argoFailedHistory),
		MarkdownDescription: fmt.Sprintf("How many failed runs Argo keeps; older ones are deleted. Defaults to %d.", argoFailedHistory),
		Validators:          []validator.Int64{int64validator.Between(0, 1000)}}
	attrs["suspend"] = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "Stops starting new runs while `true`; running ones continue. Defaults to `false`."}
	attrs["parameters"] = schema.MapAttribute{ElementType: types.StringType, Optional: true,
		MarkdownDescription: "Values for the template's parameters (`spec.workflowSpec.arguments.parameters`), e.g. " +
			"`{ dataset_version = \"latest\" }`; the template's defaults apply to the others. Values are plain " +
			"strings: `{{` is refused. Checked before the CronWorkflow is written: the template must declare each one.",
		Validators: []validator.Map{
			mapvalidator.KeysAre(stringvalidator.RegexMatches(paramName, "must be a parameter name (a letter, then letters, digits, `_` and `-`)")),
			mapvalidator.ValueStringsAre(stringvalidator.RegexMatches(noTemplate, "must not hold `{{`: a parameter value is never a template")),
		}}
	return schema.Schema{
		MarkdownDescription: "A training schedule: an Argo `CronWorkflow` (argoproj.io/v1alpha1) that starts a run of a " +
			"training job template at the times its cron schedules name, e.g. nightly retraining. Each run is a " +
			"Workflow with `workflowTemplateRef`, so its pods are the template's: queued by Kueue, retried after " +
			"interruptions, resuming from checkpoints.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func (trainingSchedule) Expand(ctx context.Context, m *trainingScheduleModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	params := framework.StringMap(ctx, m.Parameters, &diags)
	var args []wfv1.Parameter
	for _, k := range sortedKeys(params) {
		args = append(args, wfv1.Parameter{Name: k, Value: wfv1.AnyStringPtr(params[k])})
	}
	cw := &wfv1.CronWorkflow{
		ObjectMeta: metav1.ObjectMeta{Name: meta.Name, Namespace: meta.Namespace, Labels: meta.Labels, Annotations: meta.Annotations},
		Spec: wfv1.CronWorkflowSpec{
			WorkflowSpec: wfv1.WorkflowSpec{
				WorkflowTemplateRef: &wfv1.WorkflowTemplateRef{Name: m.Template.ValueString()},
				Arguments:           wfv1.Arguments{Parameters: args},
			},
			Schedules:                  stringList(ctx, m.Schedules, &diags),
			Timezone:                   m.Timezone.ValueString(),
			ConcurrencyPolicy:          wfv1.ConcurrencyPolicy(m.ConcurrencyPolicy.ValueString()),
			SuccessfulJobsHistoryLimit: ptr.To(int32(m.SuccessfulJobsHistoryLimit.ValueInt64())),
			FailedJobsHistoryLimit:     ptr.To(int32(m.FailedJobsHistoryLimit.ValueInt64())),
		},
	}
	if d := seconds(m.StartingDeadline); d > 0 {
		cw.Spec.StartingDeadlineSeconds = ptr.To(d)
	}
	if diags.HasError() {
		return nil, diags
	}
	body, err := framework.ApplyObject(cw, cronWorkflowGVK())
	if err != nil {
		diags.AddError("Building the CronWorkflow", err.Error())
		return nil, diags
	}
	// suspend is omitempty: send false too, so that a suspend set outside Terraform is undone.
	body["spec"].(map[string]any)["suspend"] = m.Suspend.ValueBool()
	return body, diags
}

// Flatten reads the model back from the CronWorkflow: a change made there outside Terraform
// shows as drift, and import works.
func (trainingSchedule) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *trainingScheduleModel, _ bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var cw wfv1.CronWorkflow
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &cw); err != nil {
		diags.AddError("Decoding CronWorkflow "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
		return diags
	}
	s := cw.Spec
	m.Namespace = types.StringValue(cw.Namespace)
	m.Template = types.StringValue("")
	if ref := s.WorkflowSpec.WorkflowTemplateRef; ref != nil {
		m.Template = types.StringValue(ref.Name)
	}
	m.Schedules = listValue(s.GetSchedules(ctx), m.Schedules)
	m.Timezone = types.StringValue(s.Timezone)
	m.ConcurrencyPolicy = types.StringValue(string(wfv1.AllowConcurrent)) // what Argo does without one
	if s.ConcurrencyPolicy != "" {
		m.ConcurrencyPolicy = types.StringValue(string(s.ConcurrencyPolicy))
	}
	m.StartingDeadline = types.StringNull()
	if d := s.StartingDeadlineSeconds; d != nil {
		m.StartingDeadline = durationValue(fmt.Sprintf("%ds", *d), m.StartingDeadline)
	}
	m.SuccessfulJobsHistoryLimit = historyLimit(s.SuccessfulJobsHistoryLimit, argoSuccessfulHistory)
	m.FailedJobsHistoryLimit = historyLimit(s.FailedJobsHistoryLimit, argoFailedHistory)
	m.Suspend = types.BoolValue(s.Suspend)
	params := map[string]string{}
	for _, p := range s.WorkflowSpec.Arguments.Parameters {
		if p.Value != nil {
			params[p.Name] = p.Value.String()
		}
	}
	m.Parameters = framework.AtomicMap(params, m.Parameters)
	return diags
}

func historyLimit(live *int32, argoDefault int64) types.Int64 {
	if live == nil || *live < 0 {
		return types.Int64Value(argoDefault)
	}
	return types.Int64Value(int64(*live))
}
