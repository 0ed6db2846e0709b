package nvidia

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Plan-time checks of a device plugin config: what the device plugin refuses when it loads one
// (api/config/v1 replicas.go and resources.go), and what would make a node advertise nothing.

func backticked(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

// resourceNameValidator accepts the resources the device plugin advertises by default.
type resourceNameValidator struct{}

func (resourceNameValidator) Description(context.Context) string {
	return "must be nvidia.com/gpu or nvidia.com/mig-<profile>"
}
func (v resourceNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (resourceNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := gpu.ParseResourceName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid resource name", fmt.Sprintf("Attribute %s: %s", req.Path, err))
	}
}

// renameValidator is the device plugin's NewResourceName: nvidia.com/<DNS subdomain>, at most
// 63 characters in all.
type renameValidator struct{}

func (renameValidator) Description(context.Context) string {
	return "must be nvidia.com/<name>, at most 63 characters, name a DNS subdomain"
}
func (v renameValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (renameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v := req.ConfigValue.ValueString()
	name, ok := strings.CutPrefix(v, "nvidia.com/")
	var problems []string
	if !ok {
		problems = append(problems, "it must start with nvidia.com/")
	}
	if len(v) > maxResourceNameLength {
		problems = append(problems, fmt.Sprintf("it has %d characters, at most %d are allowed", len(v), maxResourceNameLength))
	}
	if ok {
		problems = append(problems, validation.IsDNS1123Subdomain(name)...)
	}
	if len(problems) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid resource name",
			fmt.Sprintf("Attribute %s: %q is not a resource name the device plugin accepts: %s", req.Path, v, strings.Join(problems, "; ")))
	}
}

// uniqueResourceNames refuses sharing one resource twice in a config.
type uniqueResourceNames struct{}

func (uniqueResourceNames) Description(context.Context) string {
	return "resource names must be unique"
}
func (v uniqueResourceNames) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (uniqueResourceNames) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	var rs []replicatedResourceModel
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ElementsAs(ctx, &rs, false).HasError() {
		return
	}
	seen := map[string]int{}
	for i, r := range rs {
		if r.Name.IsUnknown() {
			continue
		}
		if j, dup := seen[r.Name.ValueString()]; dup {
			p := req.Path.AtListIndex(i).AtName("name")
			resp.Diagnostics.AddAttributeError(p, "Duplicate resource",
				fmt.Sprintf("Attribute %s: %q is already shared by resources[%d]; give each resource once", p, r.Name.ValueString(), j))
		}
		seen[r.Name.ValueString()] = i
	}
}

// absolutePath accepts an absolute file system path.
type absolutePath struct{}

func (absolutePath) Description(context.Context) string { return "must be an absolute path" }
func (v absolutePath) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (absolutePath) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if v := req.ConfigValue.ValueString(); !strings.HasPrefix(v, "/") {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid path", fmt.Sprintf("Attribute %s: %q is not an absolute path", req.Path, v))
	}
}

// timeSlicingRules ties a config's fields together: sharing settings need resources, MPS shares
// whole GPUs only, MIG resources need the mixed strategy, no two resources may be advertised under
// one name, and a rename the device plugin ignores warns.
type timeSlicingRules struct{}

func (timeSlicingRules) Description(context.Context) string {
	return "sharing settings need resources; MPS shares nvidia.com/gpu only, not with mig_strategy mixed; " +
		"nvidia.com/mig-* resources need mig_strategy mixed; advertised names must be unique"
}
func (v timeSlicingRules) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeSlicingRules) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	var c timeSlicingModel
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.As(ctx, &c, basetypes.ObjectAsOptions{}).HasError() {
		return
	}
	if c.MigStrategy.IsUnknown() || c.RenameByDefault.IsUnknown() {
		return
	}
	strategy, renameByDefault := c.MigStrategy.ValueString(), c.RenameByDefault.ValueBool()
	mps := c.Sharing.ValueString() == sharingMPS
	if c.Resources == nil {
		for name, v := range map[string]attr.Value{"sharing": c.Sharing, "rename_by_default": c.RenameByDefault,
			"fail_requests_greater_than_one": c.FailRequestsGreaterThanOne} {
			if !v.IsNull() {
				resp.Diagnostics.AddAttributeError(req.Path.AtName(name), "Sharing setting without resources", fmt.Sprintf(
					"Attribute %s shares GPUs, but the config has no resources to share; give resources, or leave it out", req.Path.AtName(name)))
			}
		}
		return
	}
	if mps && strategy == string(gpu.StrategyMixed) {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("sharing"), "MPS with the mixed MIG strategy", fmt.Sprintf(
			"Attribute %s: the device plugin refuses MPS with mig_strategy \"mixed\" (MPS shares whole GPUs only); use "+
				"time-slicing to share MIG devices", req.Path.AtName("sharing")))
	}
	advertised := map[string]int{}
	for i, r := range c.Resources {
		if r.Name.IsUnknown() || r.Rename.IsUnknown() {
			return
		}
		p := req.Path.AtName("resources").AtListIndex(i)
		name := r.Name.ValueString()
		if mps && name != gpu.ResourceGPU {
			resp.Diagnostics.AddAttributeError(p.AtName("name"), "MPS shares whole GPUs only", fmt.Sprintf(
				"Attribute %s: MPS can share only %s (whole GPUs), not %s; use time-slicing to share MIG devices", p.AtName("name"), gpu.ResourceGPU, name))
		}
		if strings.HasPrefix(name, "nvidia.com/mig-") && strategy != "" && strategy != string(gpu.StrategyMixed) {
			resp.Diagnostics.AddAttributeError(p.AtName("name"), "MIG resource without the mixed strategy", fmt.Sprintf(
				"Attribute %s: %s is advertised only under the mixed MIG strategy, but mig_strategy is %q", p.AtName("name"), name, strategy))
		}
		as := name
		if renameByDefault {
			as = name + sharedSuffix
		}
		if !r.Rename.IsNull() {
			if r.Rename.ValueString() != as {
				resp.Diagnostics.AddAttributeWarning(p.AtName("rename"), "Rename ignored by the device plugin", fmt.Sprintf(
					"Attribute %s: current NVIDIA device plugin releases ignore rename (DisableResourceNamingInConfig) and advertise %s; use rename_by_default for %s%s",
					p.AtName("rename"), as, name, sharedSuffix))
			}
			as = r.Rename.ValueString()
		}
		// Two resources with one name are uniqueResourceNames' to report.
		if j, dup := advertised[as]; dup && c.Resources[j].Name.ValueString() != name {
			resp.Diagnostics.AddAttributeError(p, "Duplicate advertised resource",
				fmt.Sprintf("Attribute %s would advertise %s, as resources[%d] does", p, as, j))
		}
		advertised[as] = i
	}
}
