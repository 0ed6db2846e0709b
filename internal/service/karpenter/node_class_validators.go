package karpenter

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Patterns from the EC2NodeClass CRD.
var (
	amiIDPattern      = regexp.MustCompile(`^ami-[0-9a-z]+$`)
	subnetIDPattern   = regexp.MustCompile(`^subnet-[0-9a-z]+$`)
	sgIDPattern       = regexp.MustCompile(`^sg-[0-9a-z]+$`)
	volumeSizePattern = regexp.MustCompile(`^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$`)
	nonNegative       = regexp.MustCompile(`^[^-]`)
	aliasPattern      = regexp.MustCompile(`^[a-zA-Z0-9]+@.+$`)
	aliasFamilies     = map[string]string{"al2": "AL2", "al2023": "AL2023", "bottlerocket": "Bottlerocket",
		"windows2019": "Windows2019", "windows2022": "Windows2022", "windows2025": "Windows2025"}
)

func code(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

func stringDefault(s string) defaults.String { return stringdefault.StaticString(s) }
func int64Default(i int64) defaults.Int64    { return int64default.StaticInt64(i) }

// Tag keys the EC2NodeClass CRD's CEL rules on spec.tags refuse: Karpenter writes these itself.
const reservedTagsDoc = "`kubernetes.io/cluster/*`, `eks:eks-cluster-name`, `karpenter.sh/nodepool`, `karpenter.sh/nodeclaim`, `karpenter.k8s.aws/ec2nodeclass`"

// reservedTag says why key may not be an EC2NodeClass tag, or "" if it may.
func reservedTag(key string) string {
	switch {
	case key == "":
		return "empty tag keys aren't supported"
	case strings.HasPrefix(key, "kubernetes.io/cluster"):
		return "kubernetes.io/cluster/* is reserved by Karpenter"
	case key == "eks:eks-cluster-name", key == "karpenter.sh/nodepool", key == "karpenter.sh/nodeclaim", key == "karpenter.k8s.aws/ec2nodeclass":
		return key + " is reserved by Karpenter"
	}
	return ""
}

type reservedTagKey struct{}

func (reservedTagKey) Description(context.Context) string {
	return "must not be a tag key Karpenter reserves (" + reservedTagsDoc + ")"
}
func (v reservedTagKey) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (reservedTagKey) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if why := reservedTag(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Reserved tag key",
			fmt.Sprintf("Attribute %s: tag key %q is refused: %s", req.Path.ParentPath(), req.ConfigValue.ValueString(), why))
	}
}

// nonEmptyTags is the selector rule "empty tag keys or values aren't supported".
type nonEmptyTags struct{}

func (nonEmptyTags) Description(context.Context) string {
	return "tag keys and values must not be empty"
}
func (v nonEmptyTags) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (nonEmptyTags) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	for k, v := range req.ConfigValue.Elements() {
		s, ok := v.(types.String)
		if k == "" || (ok && !s.IsUnknown() && s.ValueString() == "") {
			resp.Diagnostics.AddAttributeError(req.Path, "Empty selector tag",
				fmt.Sprintf("Attribute %s: empty tag keys or values aren't supported (key %q)", req.Path, k))
		}
	}
}

// aliasValidator applies the CRD's three rules on amiSelectorTerms[].alias.
type aliasValidator struct{}

func (aliasValidator) Description(context.Context) string {
	return "must be family@version with a supported family"
}
func (v aliasValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (aliasValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	a := req.ConfigValue.ValueString()
	family, version, _ := strings.Cut(a, "@")
	var why string
	switch {
	case len(a) > 30:
		why = "it is longer than 30 characters"
	case !aliasPattern.MatchString(a):
		why = "it must match the format 'family@version', e.g. al2023@latest"
	case aliasFamilies[family] == "":
		why = "family must be one of al2, al2023, bottlerocket, windows2019, windows2022, windows2025"
	case strings.HasPrefix(family, "windows") && version != "latest":
		why = "windows families may only specify version 'latest'"
	}
	if why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid AMI alias", fmt.Sprintf("Attribute %s: %q: %s", req.Path, a, why))
	}
}

// exactlyOneField: a subnet term sets exactly one of id and tags; a security group term exactly
// one of id, name and tags (the CRD's "mutually exclusive" and "expected at least one" rules).
type exactlyOneField struct{ withName bool }

func (v exactlyOneField) Description(context.Context) string {
	if v.withName {
		return "exactly one of id, name and tags"
	}
	return "exactly one of id and tags"
}
func (v exactlyOneField) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v exactlyOneField) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	set, unknown := 0, false
	for _, k := range []string{"id", "name", "tags"} {
		a, ok := req.ConfigValue.Attributes()[k]
		if !ok {
			continue
		}
		unknown = unknown || a.IsUnknown()
		if !a.IsNull() {
			set++
		}
	}
	if set != 1 && !unknown {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid selector term",
			fmt.Sprintf("Attribute %s must set %s", req.Path, v.Description(context.Background())))
	}
}

type oneRootVolume struct{}

func (oneRootVolume) Description(context.Context) string {
	return "at most one block device may be the root volume"
}
func (v oneRootVolume) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (oneRootVolume) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	n := 0
	for _, e := range req.ConfigValue.Elements() {
		if o, ok := e.(types.Object); ok {
			if b, ok := o.Attributes()["root_volume"].(types.Bool); ok && b.ValueBool() {
				n++
			}
		}
	}
	if n > 1 {
		resp.Diagnostics.AddAttributeError(req.Path, "Several root volumes",
			fmt.Sprintf("Attribute %s: %d block devices set root_volume; at most one may", req.Path, n))
	}
}

type gcThresholds struct{}

func (gcThresholds) Description(context.Context) string {
	return "image_gc_high_threshold_percent must be greater than image_gc_low_threshold_percent"
}
func (v gcThresholds) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (gcThresholds) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	hi, okH := req.ConfigValue.Attributes()["image_gc_high_threshold_percent"].(types.Int64)
	lo, okL := req.ConfigValue.Attributes()["image_gc_low_threshold_percent"].(types.Int64)
	if !okH || !okL || !known(hi) || !known(lo) {
		return
	}
	if hi.ValueInt64() <= lo.ValueInt64() {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("image_gc_high_threshold_percent"), "Invalid image GC thresholds",
			fmt.Sprintf("Attribute %s.image_gc_high_threshold_percent (%d) must be greater than image_gc_low_threshold_percent (%d)",
				req.Path, hi.ValueInt64(), lo.ValueInt64()))
	}
}

func known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

func (nodeClass) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{resourcevalidator.ExactlyOneOf(path.MatchRoot("role"), path.MatchRoot("instance_profile")),
		nodeConfigNeedsAL2023{}}
}

// ValidateConfig applies the CRD's rules that span AMI selector terms and ami_family.
func (nodeClass) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var terms []amiTermModel
	var family types.String
	if req.Config.GetAttribute(ctx, path.Root("ami_selector"), &terms).HasError() ||
		req.Config.GetAttribute(ctx, path.Root("ami_family"), &family).HasError() {
		return
	}
	alias := ""
	for i, t := range terms {
		p := path.Root("ami_selector").AtListIndex(i)
		others := !t.Tags.IsNull() || !t.Name.IsNull() || !t.Owner.IsNull() || !t.SSMParameter.IsNull()
		switch {
		case !t.Alias.IsNull() && (others || !t.ID.IsNull()):
			resp.Diagnostics.AddAttributeError(p, "Invalid AMI selector", fmt.Sprintf("Attribute %s: alias excludes every other field", p))
		case !t.Alias.IsNull() && len(terms) != 1:
			resp.Diagnostics.AddAttributeError(p, "Invalid AMI selector", fmt.Sprintf("Attribute %s: an alias must be the only term", p))
		case !t.ID.IsNull() && others:
			resp.Diagnostics.AddAttributeError(p, "Invalid AMI selector", fmt.Sprintf("Attribute %s: id excludes every other field", p))
		case t.Alias.IsNull() && t.ID.IsNull() && !others && !t.Alias.IsUnknown() && !t.ID.IsUnknown():
			resp.Diagnostics.AddAttributeError(p, "Invalid AMI selector", fmt.Sprintf("Attribute %s must set one of alias, id, tags, name, ssm_parameter", p))
		}
		if known(t.Alias) {
			alias, _, _ = strings.Cut(t.Alias.ValueString(), "@")
		}
		if t.Alias.IsUnknown() {
			return
		}
	}
	switch {
	case alias == "" && family.IsNull() && len(terms) > 0:
		resp.Diagnostics.AddAttributeError(path.Root("ami_family"), "Missing ami_family",
			"Attribute ami_family is required when ami_selector has no alias")
	case alias != "" && known(family) && family.ValueString() != "Custom" && family.ValueString() != aliasFamilies[alias]:
		resp.Diagnostics.AddAttributeError(path.Root("ami_family"), "Invalid ami_family",
			fmt.Sprintf("Attribute ami_family must be %q or \"Custom\" with alias family %s, got %q", aliasFamilies[alias], alias, family.ValueString()))
	}
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// withDescription returns a map attribute with another description.
func withDescription(a schema.Attribute, desc string) schema.Attribute {
	if m, ok := a.(schema.MapAttribute); ok {
		m.MarkdownDescription = desc
		return m
	}
	return a
}
