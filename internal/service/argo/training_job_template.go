package argo

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type trainingJobTemplateModel struct {
	framework.NamespacedMetadata
	Queue           types.String     `tfsdk:"queue"`
	PriorityClass   types.String     `tfsdk:"priority_class"`
	Billing         types.Map        `tfsdk:"billing"`
	ServiceAccount  types.String     `tfsdk:"service_account"`
	Image           types.String     `tfsdk:"image"`
	TrainingScript  types.String     `tfsdk:"training_script"`
	Command         types.List       `tfsdk:"command"`
	Args            types.List       `tfsdk:"args"`
	Env             types.Map        `tfsdk:"env"`
	DatasetVersion  types.String     `tfsdk:"dataset_version"`
	Hyperparameters types.Map        `tfsdk:"hyperparameters"`
	Hardware        *hardwareModel   `tfsdk:"hardware"`
	Capacity        types.String     `tfsdk:"capacity"`
	Checkpoint      *checkpointModel `tfsdk:"checkpoint"`
	Retry           *retryModel      `tfsdk:"retry"`
	Source          *sourceModel     `tfsdk:"source"`
	Tracking        *trackingModel   `tfsdk:"tracking"`
	Volumes         []volumeModel    `tfsdk:"volumes"`
	ActiveDeadline  types.String     `tfsdk:"active_deadline"`
	TTLAfterFinish  types.String     `tfsdk:"ttl_after_finished"`
	PodGC           types.String     `tfsdk:"pod_gc"`
	RetryExpression types.String     `tfsdk:"retry_expression"`
	SubmitCommand   types.String     `tfsdk:"submit_command"`
	SubmitManifest  types.String     `tfsdk:"submit_manifest"`
	Resources       types.Map        `tfsdk:"resources"`
}

type hardwareModel struct {
	GPUType   types.String `tfsdk:"gpu_type"`
	GPUCount  types.Int64  `tfsdk:"gpu_count"`
	CPUCores  types.Int64  `tfsdk:"cpu_cores"`
	MemoryGB  types.Int64  `tfsdk:"memory_gb"`
	ShmSizeGB types.Int64  `tfsdk:"shm_size_gb"`
}

type checkpointModel struct {
	URI                    types.String `tfsdk:"uri"`
	EnvName                types.String `tfsdk:"env_name"`
	TerminationGracePeriod types.String `tfsdk:"termination_grace_period"`
}

type retryModel struct {
	Limit   types.Int64  `tfsdk:"limit"`
	Backoff types.String `tfsdk:"backoff"`
}

type sourceModel struct {
	GitRepo             types.String    `tfsdk:"git_repo"`
	Revision            types.String    `tfsdk:"revision"`
	SSHPrivateKeySecret *secretRefModel `tfsdk:"ssh_private_key_secret"`
}

type secretRefModel struct {
	Name types.String `tfsdk:"name"`
	Key  types.String `tfsdk:"key"`
}

type trackingModel struct {
	URI        types.String `tfsdk:"uri"`
	Experiment types.String `tfsdk:"experiment"`
}

type volumeModel struct {
	ClaimName types.String `tfsdk:"claim_name"`
	MountPath types.String `tfsdk:"mount_path"`
}

type trainingJobTemplate struct{}

// The cycle finds these hooks by type assertion; these make a signature mismatch a compile error.
var (
	_ framework.ConfigValidatorsProvider                      = trainingJobTemplate{}
	_ framework.ConfigChecker                                 = trainingJobTemplate{}
	_ framework.PlanModifier                                  = trainingJobTemplate{}
	_ framework.UpstreamErrorWorder[trainingJobTemplateModel] = trainingJobTemplate{}
	_ framework.PreApplyChecker[trainingJobTemplateModel]     = trainingJobTemplate{}
)

// NewTrainingJobTemplateResource is mlplatform_training_job_template.
func NewTrainingJobTemplateResource() resource.Resource {
	return framework.NewResource[trainingJobTemplateModel](trainingJobTemplate{})
}

func (trainingJobTemplate) Kind() kube.Kind    { return workflowTemplateKind }
func (trainingJobTemplate) TypeSuffix() string { return "training_job_template" }

// Names inside the generated WorkflowTemplate.
const (
	entrypoint       = "train"
	mainContainer    = "main"
	shmVolume        = "dshm"
	datasetParam     = "dataset_version"
	labelQueue       = "kueue.x-k8s.io/queue-name"
	labelPriority    = "kueue.x-k8s.io/priority-class"
	capacityAny      = "any"
	defaultGraceTime = "120s"
	sourceArtifact   = "source"
	sourcePath       = "/workspace/src"
	envTrackingURI   = "MLFLOW_TRACKING_URI"
	envExperiment    = "MLFLOW_EXPERIMENT_NAME"
	envRunName       = "MLFLOW_RUN_NAME"
)
