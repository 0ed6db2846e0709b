package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/homedir"
)

// connection holds the provider attributes that say how to reach the cluster, after environment
// defaults are applied. The names and KUBE_* variables are those of hashicorp/kubernetes so a
// provider block can be copied from there.
type connection struct {
	ConfigPaths           []string
	ConfigContext         string
	ConfigContextCluster  string
	ConfigContextAuthInfo string
	Host                  string
	Username              string
	Password              string
	Token                 string
	ClientCertificate     string
	ClientKey             string
	ClusterCACertificate  string
	Insecure              bool
	TLSServerName         string
	ProxyURL              string
	Exec                  *clientcmdapi.ExecConfig
}

// envDefault is one attribute's environment variable, as in hashicorp/kubernetes.
var envDefaults = map[string]string{
	"config_path":              "KUBE_CONFIG_PATH",
	"config_paths":             "KUBE_CONFIG_PATHS",
	"config_context":           "KUBE_CTX",
	"config_context_cluster":   "KUBE_CTX_CLUSTER",
	"config_context_auth_info": "KUBE_CTX_AUTH_INFO",
	"host":                     "KUBE_HOST",
	"username":                 "KUBE_USER",
	"password":                 "KUBE_PASSWORD",
	"token":                    "KUBE_TOKEN",
	"client_certificate":       "KUBE_CLIENT_CERT_DATA",
	"client_key":               "KUBE_CLIENT_KEY_DATA",
	"cluster_ca_certificate":   "KUBE_CLUSTER_CA_CERT_DATA",
	"insecure":                 "KUBE_INSECURE",
	"tls_server_name":          "KUBE_TLS_SERVER_NAME",
	"proxy_url":                "KUBE_PROXY_URL",
}

// stringOr returns the configured value, else the attribute's environment variable.
func stringOr(v types.String, attr string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(envDefaults[attr])
}

func (c *connection) restConfig() (*rest.Config, error) {
	loader := &clientcmd.ClientConfigLoadingRules{}
	overrides := &clientcmd.ConfigOverrides{}
	if len(c.ConfigPaths) > 0 {
		paths := make([]string, len(c.ConfigPaths))
		for i, p := range c.ConfigPaths {
			paths[i] = expandHome(p)
		}
		if len(paths) == 1 {
			loader.ExplicitPath = paths[0]
		} else {
			loader.Precedence = paths
		}
		overrides.CurrentContext = c.ConfigContext
		overrides.Context.Cluster = c.ConfigContextCluster
		overrides.Context.AuthInfo = c.ConfigContextAuthInfo
	}
	overrides.ClusterInfo.InsecureSkipTLSVerify = c.Insecure
	overrides.ClusterInfo.TLSServerName = c.TLSServerName
	overrides.ClusterInfo.CertificateAuthorityData = []byte(c.ClusterCACertificate)
	overrides.ClusterDefaults.ProxyURL = c.ProxyURL
	overrides.AuthInfo.ClientCertificateData = []byte(c.ClientCertificate)
	overrides.AuthInfo.ClientKeyData = []byte(c.ClientKey)
	overrides.AuthInfo.Username = c.Username
	overrides.AuthInfo.Password = c.Password
	overrides.AuthInfo.Token = c.Token
	overrides.AuthInfo.Exec = c.Exec
	if c.Host != "" {
		// A host without a scheme is taken as https whatever else is set: guessing http from the
		// absence of certificates would send a token or password in clear text.
		u, _, err := rest.DefaultServerURL(c.Host, "", schema.GroupVersion{}, true)
		if err != nil {
			return nil, fmt.Errorf("host %q is not a valid URL: %w", c.Host, err)
		}
		overrides.ClusterInfo.Server = u.String()
	}
	if len(c.ConfigPaths) == 0 && c.Host == "" {
		if cfg, err := rest.InClusterConfig(); err == nil {
			return cfg, nil
		}
		return nil, fmt.Errorf("no cluster is configured: set the provider's config_path or host " +
			"(or KUBE_CONFIG_PATH / KUBE_HOST), or run inside a pod")
	}
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(loader, overrides).ClientConfig()
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(homedir.HomeDir(), rest)
	}
	return p
}

// splitPaths reads KUBE_CONFIG_PATHS, a list separated like PATH.
func splitPaths(s string) []string {
	if s == "" {
		return nil
	}
	return filepath.SplitList(s)
}

func boolOr(v types.Bool, attr string) (bool, error) {
	if !v.IsNull() {
		return v.ValueBool(), nil
	}
	s := os.Getenv(envDefaults[attr])
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not a boolean", envDefaults[attr], s)
	}
	return b, nil
}
