package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

type providerModel struct {
	ConfigPath            types.String `tfsdk:"config_path"`
	ConfigPaths           types.List   `tfsdk:"config_paths"`
	ConfigContext         types.String `tfsdk:"config_context"`
	ConfigContextCluster  types.String `tfsdk:"config_context_cluster"`
	ConfigContextAuthInfo types.String `tfsdk:"config_context_auth_info"`
	Host                  types.String `tfsdk:"host"`
	Username              types.String `tfsdk:"username"`
	Password              types.String `tfsdk:"password"`
	Token                 types.String `tfsdk:"token"`
	ClientCertificate     types.String `tfsdk:"client_certificate"`
	ClientKey             types.String `tfsdk:"client_key"`
	ClusterCACertificate  types.String `tfsdk:"cluster_ca_certificate"`
	Insecure              types.Bool   `tfsdk:"insecure"`
	TLSServerName         types.String `tfsdk:"tls_server_name"`
	ProxyURL              types.String `tfsdk:"proxy_url"`
	Exec                  types.List   `tfsdk:"exec"` // of execModel; see execs
	DefaultLabels         types.Map    `tfsdk:"default_labels"`
	FieldManager          types.String `tfsdk:"field_manager"`
	PricingRegion         types.String `tfsdk:"pricing_region"`
}

type execModel struct {
	APIVersion types.String `tfsdk:"api_version"`
	Command    types.String `tfsdk:"command"`
	Args       types.List   `tfsdk:"args"`
	Env        types.Map    `tfsdk:"env"`
}

// execs is the exec block: none while it is unknown (a dynamic block over a value known only at
// apply), when clientHasUnknown holds.
func (m *providerModel) execs(ctx context.Context, diags *diag.Diagnostics) []execModel {
	var out []execModel
	if !m.Exec.IsNull() && !m.Exec.IsUnknown() {
		diags.Append(m.Exec.ElementsAs(ctx, &out, false)...)
	}
	return out
}

func envNote(attr string) string {
	return fmt.Sprintf(" Defaults to the `%s` environment variable.", envDefaults[attr])
}

func (p *mlplatformProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	str := func(attr, desc string, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Sensitive: sensitive, MarkdownDescription: desc + envNote(attr)}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Declares a GPU training platform on Kubernetes: Kueue queues and flavors, " +
			"Karpenter GPU node pools, NVIDIA MIG and time-slicing configuration and training job templates. " +
			"The connection attributes and their `KUBE_*` environment variables are those of the " +
			"`hashicorp/kubernetes` provider. The provider contacts the cluster only to read and write objects, " +
			"so a plan that only creates objects works before the cluster is reachable.",
		Attributes: map[string]schema.Attribute{
			"config_path": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Path to a kubeconfig file." + envNote("config_path"),
				Validators:          []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("config_paths"))},
			},
			"config_paths": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Kubeconfig files merged in order, as in `KUBECONFIG`. " +
					"The `KUBE_CONFIG_PATHS` environment variable holds them separated like `PATH`.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), framework.NoNullElements()},
			},
			"config_context":           str("config_context", "Context of the kubeconfig to use instead of its current context.", false),
			"config_context_cluster":   str("config_context_cluster", "Cluster of the kubeconfig to use instead of the context's.", false),
			"config_context_auth_info": str("config_context_auth_info", "User of the kubeconfig to use instead of the context's.", false),
			"host":                     str("host", "The API server's address, e.g. `https://10.0.0.1:6443`; overrides the kubeconfig's. Without a scheme it is taken as `https://`.", false),
			"username":                 str("username", "User name for HTTP basic authentication.", false),
			"password":                 str("password", "Password for HTTP basic authentication.", true),
			"token":                    str("token", "Bearer token.", true),
			"client_certificate":       str("client_certificate", "PEM-encoded client certificate for TLS authentication.", false),
			"client_key":               str("client_key", "PEM-encoded client certificate key for TLS authentication.", true),
			"cluster_ca_certificate":   str("cluster_ca_certificate", "PEM-encoded root certificate bundle for TLS authentication. Conflicts with `insecure = true`.", false),
			"insecure": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Skip verification of the API server's certificate. Insecure; for tests only. " +
					"Conflicts with `cluster_ca_certificate`." + envNote("insecure"),
			},
			"tls_server_name": str("tls_server_name", "Server name used to verify the API server's certificate.", false),
			"proxy_url":       str("proxy_url", "URL of the proxy to reach the API server through; sensitive, as it may carry the proxy's credentials (`http://user:password@proxy:3128`).", true),
			"default_labels": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Labels merged into `metadata.labels` of every object the provider writes; a " +
					"resource's own `labels` win on a conflict. This is how billing labels (team, project, cost centre) " +
					"reach every object. Keys and values must be valid Kubernetes labels.",
				Validators: framework.LabelMapValidators(framework.NoNullElements()),
			},
			"field_manager": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Prefix of the server-side apply field managers. Defaults to `%[1]s`. "+
					"Each resource instance writes under a field manager of its own, `<field_manager>:<type>:<instance id>` "+
					"(e.g. `%[1]s:resource_flavor:3f2a9c1e`), so that it owns exactly the fields it wrote; at most %[2]d "+
					"characters, as the apiserver takes field managers of up to 128. On objects a resource owns, fields it "+
					"declares are taken back from any other manager (e.g. `kubectl edit`) instead of failing on a conflict; "+
					"fields it never set are left alone. On a shared ConfigMap, only its own keys are taken back.",
					kube.DefaultFieldManager, framework.MaxFieldManagerLength),
				Validators: []validator.String{stringvalidator.LengthBetween(1, framework.MaxFieldManagerLength)},
			},
			"pricing_region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("AWS region of the cluster's EC2 instances, whose on-demand prices make the "+
					"`hourly_price` of `mlplatform_gpu_node_pool`'s `supplies`. Defaults to `%s`. One setting for the provider, "+
					"as a provider speaks to one cluster and a cluster's nodes are in one region. Prices are those of "+
					"karpenter-provider-aws %s's static tables, in USD, which cover %s only: in another region a pool's "+
					"`hourly_price` is null unless the pool gives its prices (`on_demand.price_per_hour`, `spot.price_per_hour`).",
					pricing.DefaultRegion, pricing.SourceVersion, "`"+strings.Join(pricing.Regions(), "`, `")+"`"),
				Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`),
					"must be an AWS region such as us-east-1")},
			},
		},
		Blocks: map[string]schema.Block{
			"exec": schema.ListNestedBlock{
				MarkdownDescription: "Obtain credentials by running a command (a client-go credential plugin), " +
					"e.g. `aws eks get-token`.",
				Validators: []validator.List{listvalidator.SizeAtMost(1)},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"api_version": schema.StringAttribute{
							Required:            true,
							MarkdownDescription: "API version of the credential plugin, e.g. `client.authentication.k8s.io/v1beta1`.",
						},
						"command": schema.StringAttribute{Required: true, MarkdownDescription: "Command to run."},
						"args": schema.ListAttribute{
							ElementType: types.StringType, Optional: true, MarkdownDescription: "Arguments of the command.",
							Validators: []validator.List{framework.NoNullElements()},
						},
						"env": schema.MapAttribute{
							ElementType: types.StringType, Optional: true, Sensitive: true,
							MarkdownDescription: "Environment variables set for the command. Sensitive, as credential " +
								"plugins commonly read secrets from them (e.g. `AWS_SECRET_ACCESS_KEY`).",
							Validators: []validator.Map{framework.NoNullElements()},
						},
					},
				},
			},
		},
	}
}
