package kueue

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/tools/clientcmd"
)

func (multiKueueCluster) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.AtLeastOneOf(path.MatchRoot("kubeconfig"), path.MatchRoot("kubeconfig_secret"), path.MatchRoot("kubeconfig_path")),
		resourcevalidator.Conflicting(path.MatchRoot("kubeconfig_path"), path.MatchRoot("kubeconfig")),
		resourcevalidator.Conflicting(path.MatchRoot("kubeconfig_path"), path.MatchRoot("kubeconfig_secret")),
	}
}

// kubeconfigValidator refuses a kubeconfig Kueue v0.19.2 would refuse to connect with. Kueue's
// checks (validateKubeconfig and validateRestConfig in
// pkg/controller/admissionchecks/multikueue/multikueuecluster.go) are unexported, so they are
// restated here; its messages are kept. Nothing of the kubeconfig's values is ever quoted.
type kubeconfigValidator struct{}

func (kubeconfigValidator) Description(context.Context) string {
	return "a kubeconfig Kueue's MultiKueue accepts"
}

func (v kubeconfigValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (kubeconfigValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkKubeconfig([]byte(req.ConfigValue.ValueString())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Kubeconfig that Kueue refuses",
			"Kueue's MultiKueue would not connect to the worker with this kubeconfig: "+err.Error()+".")
	}
}

func checkKubeconfig(kubeconfig []byte) error {
	config, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return errors.New("it is not a kubeconfig (it does not parse as one)")
	}
	for name, user := range config.AuthInfos {
		if user.TokenFile != "" {
			return fmt.Errorf("tokenFile is not allowed (user %q): put the token itself in `token`", name)
		}
	}
	for name, cluster := range config.Clusters {
		switch {
		case cluster.InsecureSkipTLSVerify:
			return fmt.Errorf("insecure TLS verification is not allowed for cluster %q", name)
		case cluster.CertificateAuthority != "":
			return fmt.Errorf("certificate-authority file paths are not allowed, use certificate-authority-data for cluster %q", name)
		case cluster.Server == "":
			return fmt.Errorf("server URL is required for cluster %q", name)
		}
	}
	rest, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	if err != nil {
		return fmt.Errorf("client-go cannot build a client from it: %w", err)
	}
	switch {
	case rest.BearerTokenFile != "":
		return errors.New("bearerTokenFile is not allowed")
	case !trustedServer(rest.Host):
		return errors.New("untrusted server endpoint: the server's host must be an IP address or a DNS name")
	case rest.Username != "" || rest.Password != "":
		return errors.New("basic auth is not allowed")
	case rest.ExecProvider != nil:
		return errors.New("exec plugins are not allowed")
	case rest.AuthProvider != nil:
		return errors.New("auth providers are not allowed")
	}
	return nil
}

// trustedServer is Kueue's isValidHostname: the host of the server URL is an IP address or a
// lower-cased DNS subdomain.
func trustedServer(server string) bool {
	u, err := url.Parse(strings.ToLower(server))
	if err != nil {
		return false
	}
	host, _, err := net.SplitHostPort(u.Host)
	if err != nil {
		host = u.Host
	}
	return net.ParseIP(host) != nil || len(validation.IsDNS1123Subdomain(host)) == 0
}

// kubeconfigPathPrefix is the directory Kueue v0.19 accepts kubeconfig files under with its
// MultiKueueKubeConfigPathValidation gate (defaultKubeConfigPathPrefix in multikueuecluster.go).
const kubeconfigPathPrefix = "/etc/multikueue/kubeconfigs"

// kubeconfigPathValidator is Kueue's validateKubeConfigPath without the symlink resolution (the
// file is in Kueue's container, not here), and warns that Kueue deprecates the Path location.
type kubeconfigPathValidator struct{}

func (kubeconfigPathValidator) Description(context.Context) string {
	return "an absolute path under " + kubeconfigPathPrefix
}

func (v kubeconfigPathValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (kubeconfigPathValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	p := req.ConfigValue.ValueString()
	clean := filepath.Clean(p)
	var why string
	switch {
	case slices.Contains(strings.Split(clean, "/"), ".."):
		why = "it contains \"..\""
	case !filepath.IsAbs(clean):
		why = "it is not absolute"
	case !strings.HasPrefix(clean, kubeconfigPathPrefix+"/"):
		why = "it is not under " + kubeconfigPathPrefix + "/"
	}
	if why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Kubeconfig path that Kueue refuses",
			fmt.Sprintf("%q: %s. Kueue v0.19 accepts kubeconfig files only under %s/ once its MultiKueueKubeConfigPathValidation "+
				"feature gate is on (and deprecates any other path); prefer a Secret (`kubeconfig` or `kubeconfig_secret`).",
				p, why, kubeconfigPathPrefix))
		return
	}
	resp.Diagnostics.AddAttributeWarning(req.Path, "Kubeconfig path is deprecated by Kueue",
		"Kueue v0.19 deprecates locationType Path for MultiKueueClusters and reports DeprecatedPathUsage events while its "+
			"MultiKueueKubeConfigPathValidation feature gate is off; a Secret (`kubeconfig` or `kubeconfig_secret`) is the supported way.")
}
