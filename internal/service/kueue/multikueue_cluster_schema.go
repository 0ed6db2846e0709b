package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

func (multiKueueCluster) Schema(ctx context.Context) schema.Schema {
	attrs := framework.MetadataAttributes("MultiKueueCluster")
	attrs["kubeconfig"] = schema.StringAttribute{
		Optional:  true,
		Sensitive: true,
		MarkdownDescription: "The worker cluster's kubeconfig (YAML), which the resource writes into the Secret " +
			"`kubeconfig_secret` (key `" + kueuev1beta2.MultiKueueConfigSecretKey + "`) in `kueue_namespace`, owned by this " +
			"resource like its other objects: an existing Secret of that name is never taken over. Checked at plan as " +
			"Kueue checks it before connecting: the server an IP address or DNS name, its CA as " +
			"`certificate-authority-data` (no file), TLS verified, and credentials as data: a token or a client " +
			"certificate, no `tokenFile`, basic auth, exec plugin or auth provider. A service account token of the worker " +
			"is the usual credential. Sensitive: never shown in plans or logs.",
		Validators: []validator.String{kubeconfigValidator{}},
	}
	attrs["kubeconfig_secret"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Name of the Secret in `kueue_namespace` holding the worker's kubeconfig under the key `" +
			kueuev1beta2.MultiKueueConfigSecretKey + "`. With `kubeconfig`, the Secret the resource writes (defaults to " +
			"`<name>-kubeconfig`); without it, a Secret written by something else (e.g. an external-secrets " +
			"ExternalSecret), which the resource only names and never reads, changes or deletes.",
		Validators: []validator.String{framework.DNSSubdomain()},
	}
	attrs["kubeconfig_path"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Instead of a Secret: the path of the kubeconfig file in Kueue's manager container " +
			"(`locationType: Path`), which you mount there. Kueue v0.19 deprecates this: it must be an absolute path under `" +
			kubeconfigPathPrefix + "/`, which is what Kueue accepts with its `MultiKueueKubeConfigPathValidation` feature " +
			"gate (and will accept by default); anything else is refused at plan.",
		Validators: []validator.String{kubeconfigPathValidator{}},
	}
	attrs["kueue_namespace"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		Default:  stringdefault.StaticString(defaultKueueNamespace),
		MarkdownDescription: "Namespace of Kueue's manager (its configuration's `namespace`), where Kueue reads the " +
			"kubeconfig's Secret. Defaults to `" + defaultKueueNamespace + "`.",
		Validators: []validator.String{framework.DNSLabel()},
	}
	return schema.Schema{
		MarkdownDescription: "A Kueue `MultiKueueCluster` (kueue.x-k8s.io/v1beta2), on the manager cluster of a MultiKueue " +
			"setup: one worker cluster and how Kueue connects to it, through a kubeconfig in a Secret (written by this " +
			"resource from `kubeconfig`, or referenced by `kubeconfig_secret`) or, deprecated, a file (`kubeconfig_path`). " +
			"An `mlplatform_multikueue_config` lists the workers a ClusterQueue dispatches to. Kueue reports the connection " +
			"in the object's `Active` condition (`kubectl get multikueueclusters` shows it as CONNECTED).\n\n" +
			"Import takes the MultiKueueCluster only: its Secret is then referenced (`kubeconfig_secret`), never adopted.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}
