package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

const twoContexts = `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev
  cluster: {server: "https://dev.example.com:6443"}
- name: prod
  cluster: {server: "https://prod.example.com:6443"}
users:
- name: dev-user
  user: {token: dev-token}
- name: prod-user
  user: {token: prod-token}
contexts:
- name: dev
  context: {cluster: dev, user: dev-user}
- name: prod
  context: {cluster: prod, user: prod-user}
`

func TestConnection_restConfig(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, []byte(twoContexts), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		conn              connection
		wantHost, wantTok string
	}{
		"current context":   {connection{ConfigPaths: []string{kubeconfig}}, "https://dev.example.com:6443", "dev-token"},
		"config_context":    {connection{ConfigPaths: []string{kubeconfig}, ConfigContext: "prod"}, "https://prod.example.com:6443", "prod-token"},
		"context overrides": {connection{ConfigPaths: []string{kubeconfig}, ConfigContextCluster: "prod"}, "https://prod.example.com:6443", "dev-token"},
		"host over file":    {connection{ConfigPaths: []string{kubeconfig}, Host: "https://other:6443", Token: "t"}, "https://other:6443", "t"},
		"host alone":        {connection{Host: "https://10.0.0.1:6443", Token: "t"}, "https://10.0.0.1:6443", "t"},
		// A host without a scheme is https even with nothing else hinting at TLS.
		"ip:port, no scheme": {connection{Host: "10.0.0.1:6443", Token: "t"}, "https://10.0.0.1:6443", "t"},
		"name, no scheme":    {connection{Host: "my-cluster.example.com", Token: "t"}, "https://my-cluster.example.com", "t"},
		"name:port, no scheme over file": {connection{ConfigPaths: []string{kubeconfig}, Host: "my-cluster.example.com:6443", Token: "t"},
			"https://my-cluster.example.com:6443", "t"},
		"explicit http kept": {connection{Host: "http://localhost:8080"}, "http://localhost:8080", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := tc.conn.restConfig()
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Host != tc.wantHost || cfg.BearerToken != tc.wantTok {
				t.Errorf("host %q token %q; want %q %q", cfg.Host, cfg.BearerToken, tc.wantHost, tc.wantTok)
			}
		})
	}
}

func TestConnection_nothingConfigured(t *testing.T) {
	_, err := (&connection{}).restConfig()
	if err == nil || !strings.Contains(err.Error(), "set the provider's config_path or host") {
		t.Fatalf("err = %v", err)
	}
}

func TestConnection_environmentDefaults(t *testing.T) {
	t.Setenv("KUBE_HOST", "https://from-env:6443")
	t.Setenv("KUBE_TOKEN", "env-token")
	t.Setenv("KUBE_INSECURE", "true")
	t.Setenv("KUBE_CONFIG_PATHS", "/a"+string(os.PathListSeparator)+"/b")
	var m providerModel
	m.ConfigPaths = nullList()
	conn, diags := m.connection(t.Context())
	if diags.HasError() {
		t.Fatal(diags)
	}
	if conn.Host != "https://from-env:6443" || conn.Token != "env-token" || !conn.Insecure || strings.Join(conn.ConfigPaths, ",") != "/a,/b" {
		t.Errorf("connection from environment = %+v", conn)
	}
}

func TestConnection_hostFromEnvironmentWithoutScheme(t *testing.T) {
	t.Setenv("KUBE_HOST", "10.0.0.1:6443")
	var m providerModel
	m.ConfigPaths = nullList()
	conn, diags := m.connection(t.Context())
	if diags.HasError() {
		t.Fatal(diags)
	}
	cfg, err := conn.restConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://10.0.0.1:6443" {
		t.Errorf("host %q, want https://10.0.0.1:6443", cfg.Host)
	}
}

func nullList() basetypes.ListValue { return types.ListNull(types.StringType) }
