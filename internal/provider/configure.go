package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// Configure builds the provider's one client without contacting the cluster: the connection is
// made on the first read or write, so plans that only create objects need no reachable cluster.
func (p *mlplatformProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &framework.ProviderData{DefaultLabelsUnknown: anyUnknown(m.DefaultLabels)}
	data.PricingRegion = m.PricingRegion.ValueString()
	if m.PricingRegion.IsNull() {
		data.PricingRegion = pricing.DefaultRegion
	}
	if !data.DefaultLabelsUnknown {
		resp.Diagnostics.Append(m.DefaultLabels.ElementsAs(ctx, &data.DefaultLabels, false)...)
	}
	load := func() (*rest.Config, error) {
		return nil, errors.New("the provider's connection settings or field_manager depend on values not known until apply")
	}
	if !m.clientHasUnknown() {
		conn, diags := m.connection(ctx)
		resp.Diagnostics.Append(diags...)
		load = conn.restConfig
	}
	if resp.Diagnostics.HasError() {
		return
	}
	data.Client = kube.NewClient(load, m.FieldManager.ValueString())
	resp.ResourceData = data
	resp.DataSourceData = data
}

// anyUnknown reports whether any of values, or any element of a list or map among them, is known
// only at apply (e.g. taken from another resource). Terraform configures the provider again at
// apply with every value known.
func anyUnknown(values ...attr.Value) bool {
	for _, v := range values {
		if v.IsUnknown() {
			return true
		}
		switch c := v.(type) {
		case types.List:
			if anyUnknown(c.Elements()...) {
				return true
			}
		case types.Map:
			for _, e := range c.Elements() {
				if e.IsUnknown() {
					return true
				}
			}
		}
	}
	return false
}

// clientHasUnknown reports whether the connection or the field manager depends on values known
// only at apply (e.g. the endpoint of a cluster created in the same run). Such a provider can
// still plan new objects; the client is needed only at apply, when everything is known. The
// client is built with its field manager, and a placeholder one must never reach the cluster.
func (m *providerModel) clientHasUnknown() bool {
	if anyUnknown(m.ConfigPath, m.ConfigPaths, m.ConfigContext, m.ConfigContextCluster, m.ConfigContextAuthInfo,
		m.Host, m.Username, m.Password, m.Token, m.ClientCertificate, m.ClientKey,
		m.ClusterCACertificate, m.Insecure, m.TLSServerName, m.ProxyURL, m.FieldManager) {
		return true
	}
	if m.Exec.IsUnknown() {
		return true
	}
	for _, e := range m.execs(context.Background(), &diag.Diagnostics{}) {
		if anyUnknown(e.APIVersion, e.Command, e.Args, e.Env) {
			return true
		}
	}
	return false
}

func (m *providerModel) connection(ctx context.Context) (*connection, diag.Diagnostics) {
	var diags diag.Diagnostics
	c := &connection{
		ConfigContext:         stringOr(m.ConfigContext, "config_context"),
		ConfigContextCluster:  stringOr(m.ConfigContextCluster, "config_context_cluster"),
		ConfigContextAuthInfo: stringOr(m.ConfigContextAuthInfo, "config_context_auth_info"),
		Host:                  stringOr(m.Host, "host"),
		Username:              stringOr(m.Username, "username"),
		Password:              stringOr(m.Password, "password"),
		Token:                 stringOr(m.Token, "token"),
		ClientCertificate:     stringOr(m.ClientCertificate, "client_certificate"),
		ClientKey:             stringOr(m.ClientKey, "client_key"),
		ClusterCACertificate:  stringOr(m.ClusterCACertificate, "cluster_ca_certificate"),
		TLSServerName:         stringOr(m.TLSServerName, "tls_server_name"),
		ProxyURL:              stringOr(m.ProxyURL, "proxy_url"),
	}
	var err error
	if c.Insecure, err = boolOr(m.Insecure, "insecure"); err != nil {
		diags.AddAttributeError(path.Root("insecure"), "Invalid provider configuration", err.Error())
	}
	// The schema's validator sees only the attributes; either value may come from KUBE_*.
	if c.Insecure && c.ClusterCACertificate != "" {
		diags.AddAttributeError(path.Root("insecure"), insecureWithCASummary, insecureWithCADetail+
			" (Either may be set through KUBE_INSECURE or KUBE_CLUSTER_CA_CERT_DATA.)")
	}
	switch {
	case !m.ConfigPaths.IsNull():
		diags.Append(m.ConfigPaths.ElementsAs(ctx, &c.ConfigPaths, false)...)
	case stringOr(m.ConfigPath, "config_path") != "":
		c.ConfigPaths = []string{stringOr(m.ConfigPath, "config_path")}
	default:
		c.ConfigPaths = splitPaths(stringOr(types.StringNull(), "config_paths"))
	}
	for _, e := range m.execs(ctx, &diags) {
		exec := &clientcmdapi.ExecConfig{
			APIVersion:      e.APIVersion.ValueString(),
			Command:         e.Command.ValueString(),
			InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
		}
		diags.Append(e.Args.ElementsAs(ctx, &exec.Args, false)...)
		var env map[string]string
		diags.Append(e.Env.ElementsAs(ctx, &env, false)...)
		for k, v := range env {
			exec.Env = append(exec.Env, clientcmdapi.ExecEnvVar{Name: k, Value: v})
		}
		c.Exec = exec
	}
	return c, diags
}
