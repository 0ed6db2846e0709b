package karpenter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/mail"
	"net/textproto"
	"slices"
	"strings"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"sigs.k8s.io/yaml"
)

// Kubelet settings that Karpenter's kubelet block lacks, written as an AL2023 nodeadm NodeConfig
// (node.eks.aws/v1alpha1, https://awslabs.github.io/amazon-eks-ami/nodeadm) in a MIME multi-part
// user data, beside the user's own user data. Karpenter adds its own NodeConfig part at launch,
// and nodeadm merges the parts' kubelet config.

const (
	nodeConfigBoundary = "MLPLATFORM-NODE-CONFIG"
	nodeConfigType     = "application/node.eks.aws"
	// partHeader marks the parts the provider writes, so that they can be read back.
	partHeader     = "X-Mlplatform-Part"
	partNodeConfig = "node-config"
	partUserData   = "user-data"
)

// The kubelet's values for these settings (k8s.io/kubelet config/v1beta1 KubeletConfiguration and
// its policy constants, v0.37.2; not imported, as the package pulls in component-base).
var (
	cpuManagerPolicies      = []string{"none", "static"}
	topologyManagerPolicies = []string{"none", "best-effort", "restricted", "single-numa-node"}
	topologyManagerScopes   = []string{"container", "pod"}
)

type nodeConfigModel struct {
	TopologyManagerPolicy types.String `tfsdk:"topology_manager_policy"`
	TopologyManagerScope  types.String `tfsdk:"topology_manager_scope"`
	CPUManagerPolicy      types.String `tfsdk:"cpu_manager_policy"`
}

// kubeletKeys are the KubeletConfiguration fields of nodeConfigModel, in its order.
var kubeletKeys = []string{"topologyManagerPolicy", "topologyManagerScope", "cpuManagerPolicy"}

func (m *nodeConfigModel) values() []types.String {
	return []types.String{m.TopologyManagerPolicy, m.TopologyManagerScope, m.CPUManagerPolicy}
}

func nodeConfigAttribute() schema.Attribute {
	enum := func(desc string, values []string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc + " One of " + code(values) + ".",
			Validators: []validator.String{stringvalidator.OneOf(values...)}}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Kubelet settings that Karpenter's `kubelet` block lacks and multi-GPU training wants: NUMA " +
			"alignment of a pod's GPUs, CPUs and NICs. They are written into the user data as an AL2023 nodeadm " +
			"`NodeConfig` (`spec.kubelet.config`), in a MIME multi-part document beside `user_data` (a shell script, a " +
			"NodeConfig or a MIME document of its own), which Karpenter and nodeadm merge with their own settings. Needs " +
			"the AL2023 AMI family (`ami_family = \"AL2023\"` or an `al2023@` alias).",
		Attributes: map[string]schema.Attribute{
			"topology_manager_policy": enum("The kubelet's `topologyManagerPolicy`: `single-numa-node` admits a pod only when "+
				"its GPUs and CPUs share one NUMA node; `restricted` only when they are aligned as well as the node allows.",
				topologyManagerPolicies),
			"topology_manager_scope": enum("The kubelet's `topologyManagerScope`: align each container, or the whole pod.",
				topologyManagerScopes),
			"cpu_manager_policy": enum("The kubelet's `cpuManagerPolicy`: `static` gives Guaranteed pods with whole CPUs "+
				"exclusive cores, which the topology manager can then align with their GPUs.", cpuManagerPolicies),
		},
	}
}

// nodeConfigNeedsAL2023 refuses node_config with an AMI family other than AL2023.
type nodeConfigNeedsAL2023 struct{}

// aliasFamilies is the AMI family of each alias family.
var aliasFamilies = map[string]string{"al2": awsv1.AMIFamilyAL2, "al2023": awsv1.AMIFamilyAL2023,
	"bottlerocket": awsv1.AMIFamilyBottlerocket, "windows2019": awsv1.AMIFamilyWindows2019,
	"windows2022": awsv1.AMIFamilyWindows2022, "windows2025": awsv1.AMIFamilyWindows2025}

func (nodeConfigNeedsAL2023) Description(context.Context) string {
	return "node_config needs the AL2023 AMI family"
}
func (v nodeConfigNeedsAL2023) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (nodeConfigNeedsAL2023) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var nc *nodeConfigModel
	var family types.String
	var terms []amiTermModel
	if req.Config.GetAttribute(ctx, path.Root("node_config"), &nc).HasError() || nc == nil ||
		req.Config.GetAttribute(ctx, path.Root("ami_family"), &family).HasError() ||
		req.Config.GetAttribute(ctx, path.Root("ami_selector"), &terms).HasError() {
		return
	}
	got := family.ValueString()
	for _, t := range terms {
		if t.Alias.IsUnknown() {
			return
		}
		if alias, _, ok := strings.Cut(t.Alias.ValueString(), "@"); ok && (family.IsNull() || got == "Custom") {
			got = aliasFamilies[alias]
		}
	}
	if family.IsUnknown() || got == "AL2023" {
		return
	}
	if got == "" {
		got = "none"
	}
	resp.Diagnostics.AddAttributeError(path.Root("node_config"), "node_config needs AL2023", fmt.Sprintf(
		"Attribute node_config is written as an AL2023 nodeadm NodeConfig, but the AMI family is %s. Use ami_family = "+
			"\"AL2023\" or an al2023@ alias; on Bottlerocket, set settings.kubernetes.topology-manager-policy and "+
			"cpu-manager-policy in user_data instead.", got))
}

// renderUserData is the user data the EC2NodeClass gets: user as it is without node_config, else
// a MIME multi-part document of the NodeConfig part and the user's part(s).
func renderUserData(user *string, nc *nodeConfigModel) (*string, error) {
	if nc == nil {
		return user, nil
	}
	config := map[string]string{}
	for i, v := range nc.values() {
		if !v.IsNull() {
			config[kubeletKeys[i]] = v.ValueString()
		}
	}
	doc, err := yaml.Marshal(map[string]any{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig",
		"spec": map[string]any{"kubelet": map[string]any{"config": config}}})
	if err != nil {
		return nil, err
	}
	parts := []mimePart{{header: textproto.MIMEHeader{"Content-Type": {nodeConfigType}, partHeader: {partNodeConfig}}, body: "---\n" + string(doc)}}
	if user != nil && *user != "" {
		userParts, err := userDataParts(*user)
		if err != nil {
			return nil, fmt.Errorf("user_data: %w", err)
		}
		parts = append(parts, userParts...)
	}
	out := mimeDocument(parts)
	return &out, nil
}

// mimeDocument writes parts as a MIME multi-part document, headers in order.
func mimeDocument(parts []mimePart) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=%q\n\n", nodeConfigBoundary)
	for _, p := range parts {
		fmt.Fprintf(&b, "--%s\n", nodeConfigBoundary)
		for _, k := range slices.Sorted(maps.Keys(p.header)) {
			fmt.Fprintf(&b, "%s: %s\n", k, p.header.Get(k))
		}
		b.WriteString("\n" + p.body + "\n") // the newline belongs to the next delimiter: bodies read back as written
	}
	fmt.Fprintf(&b, "--%s--\n", nodeConfigBoundary)
	return b.String()
}

type mimePart struct {
	header textproto.MIMEHeader
	body   string
}

// userDataParts are the parts of the user's user data: each part of a MIME multi-part document,
// else one part, a NodeConfig or a shell script.
func userDataParts(user string) ([]mimePart, error) {
	if parts, ok, err := parseMIME(user); ok || err != nil {
		for i := range parts {
			parts[i].header.Set(partHeader, partUserData)
		}
		return parts, err
	}
	contentType := `text/x-shellscript; charset="us-ascii"`
	if strings.Contains(user, "node.eks.aws/") && strings.Contains(user, "NodeConfig") {
		contentType = nodeConfigType
	}
	return []mimePart{{header: textproto.MIMEHeader{"Content-Type": {contentType}, partHeader: {partUserData}}, body: user}}, nil
}

// parseMIME reads a MIME multi-part document; ok is false for anything else.
func parseMIME(text string) (parts []mimePart, ok bool, err error) {
	msg, readErr := mail.ReadMessage(strings.NewReader(text))
	if readErr != nil {
		return nil, false, nil //nolint:nilerr // no headers: not a MIME document, which is no error
	}
	mediaType, params, typeErr := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if typeErr != nil || !strings.HasPrefix(mediaType, "multipart/") {
		return nil, false, nil //nolint:nilerr // not multi-part: one document, which is no error
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			return parts, true, nil
		}
		if err != nil {
			return nil, true, fmt.Errorf("reading its MIME parts: %w", err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			return nil, true, fmt.Errorf("reading its MIME parts: %w", err)
		}
		parts = append(parts, mimePart{header: p.Header, body: string(body)})
	}
}

// flattenUserData reads user_data and node_config back from the EC2NodeClass's user data: as
// configured while it is what they render to, else from the parts the provider marked.
func flattenUserData(live *string, prior types.String, priorNC *nodeConfigModel) (types.String, *nodeConfigModel) {
	var priorUser *string
	if !prior.IsNull() {
		v := prior.ValueString()
		priorUser = &v
	}
	if want, err := renderUserData(priorUser, priorNC); err == nil && ptrEqual(want, live) {
		return prior, priorNC
	}
	if live == nil {
		return types.StringNull(), nil
	}
	parts, ok, err := parseMIME(*live)
	if !ok || err != nil {
		return types.StringValue(*live), nil
	}
	var nc *nodeConfigModel
	var user []mimePart
	for _, p := range parts {
		switch p.header.Get(partHeader) {
		case partNodeConfig:
			nc = readNodeConfig(p.body)
		case partUserData:
			p.header.Del(partHeader)
			user = append(user, p)
		default:
			return types.StringValue(*live), nil // not a document the provider wrote
		}
	}
	switch {
	case nc == nil:
		return types.StringValue(*live), nil
	case len(user) == 0:
		return types.StringNull(), nc
	case len(user) == 1:
		return types.StringValue(user[0].body), nc
	}
	// The user's own MIME parts: read as a document of them, which renders to the same user data.
	return types.StringValue(mimeDocument(user)), nc
}

func readNodeConfig(body string) *nodeConfigModel {
	var doc struct {
		Spec struct {
			Kubelet struct {
				Config map[string]string `json:"config"`
			} `json:"kubelet"`
		} `json:"spec"`
	}
	if yaml.Unmarshal([]byte(body), &doc) != nil {
		return nil
	}
	c := doc.Spec.Kubelet.Config
	get := func(k string) types.String {
		if v, ok := c[k]; ok {
			return types.StringValue(v)
		}
		return types.StringNull()
	}
	return &nodeConfigModel{TopologyManagerPolicy: get(kubeletKeys[0]), TopologyManagerScope: get(kubeletKeys[1]), CPUManagerPolicy: get(kubeletKeys[2])}
}

func ptrEqual(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}
