package karpenter

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

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

// exactlyOneField: a subnet term sets exactly one of id and tags; a security group term exactly
// one of id, name and tags (the CRD's "mutually exclusive" and "expected at least one" rules).
// The CRD reports them on the list; naming the term takes the rule itself.
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

func known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

func (nodeClass) ConfigValidators(context.Context) []resource.ConfigValidator {
	// The CRD's rule reports on spec; ExactlyOneOf names the attributes set (or both when neither is).
	return []resource.ConfigValidator{resourcevalidator.ExactlyOneOf(path.MatchRoot("role"), path.MatchRoot("instance_profile")),
		nodeConfigNeedsAL2023{}}
}

// ValidateConfig applies the CRD's rules on AMI selector terms that exclude each other. The CRD
// reports them on amiSelectorTerms; naming the term takes the rule itself. Its rules between the
// terms and amiFamily are the validate engine's (UpstreamPointers).
func (nodeClass) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var terms []amiTermModel
	if req.Config.GetAttribute(ctx, path.Root("ami_selector"), &terms).HasError() {
		return
	}
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
	}
}
