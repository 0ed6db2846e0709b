package framework

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
)

// Taint and toleration attributes, shared by every resource that places pods or nodes (Kueue
// flavors, Karpenter node pools, training templates), with the checks the API server applies.

// TaintEffects are the effects Kubernetes accepts.
var TaintEffects = []string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectPreferNoSchedule), string(corev1.TaintEffectNoExecute)}

// TolerationOperators are the operators Kubernetes accepts.
var TolerationOperators = []string{string(corev1.TolerationOpEqual), string(corev1.TolerationOpExists)}

// TaintModel is one taint.
type TaintModel struct {
	Key    types.String `tfsdk:"key"`
	Value  types.String `tfsdk:"value"`
	Effect types.String `tfsdk:"effect"`
}

// TolerationModel is one toleration.
type TolerationModel struct {
	Key               types.String `tfsdk:"key"`
	Operator          types.String `tfsdk:"operator"`
	Value             types.String `tfsdk:"value"`
	Effect            types.String `tfsdk:"effect"`
	TolerationSeconds types.Int64  `tfsdk:"toleration_seconds"`
}

func oneOf(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

// TaintAttributes are the attributes of one taint.
func TaintAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"key":   schema.StringAttribute{Required: true, MarkdownDescription: "Taint key.", Validators: []validator.String{QualifiedName()}},
		"value": schema.StringAttribute{Optional: true, MarkdownDescription: "Taint value.", Validators: []validator.String{LabelValue()}},
		"effect": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Taint effect: one of " + oneOf(TaintEffects) + ".",
			Validators:          []validator.String{stringvalidator.OneOf(TaintEffects...)},
		},
	}
}

// TolerationAttributes are the attributes of one toleration.
func TolerationAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"key": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Taint key the toleration applies to; empty with operator `Exists` tolerates every taint.",
			Validators:          []validator.String{QualifiedName()},
		},
		"operator": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "One of " + oneOf(TolerationOperators) + "; Kubernetes treats an unset operator as `Equal`.",
			Validators:          []validator.String{stringvalidator.OneOf(TolerationOperators...)},
		},
		"value": schema.StringAttribute{Optional: true, MarkdownDescription: "Taint value to match with operator `Equal`; must be unset with `Exists`."},
		"effect": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Taint effect to match: one of " + oneOf(TaintEffects) + "; unset matches all effects.",
			Validators:          []validator.String{stringvalidator.OneOf(TaintEffects...)},
		},
		"toleration_seconds": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "How long a `NoExecute` taint is tolerated before eviction; only with effect `NoExecute`.",
		},
	}
}

// TaintsUnique refuses two taints with the same key and effect, as the API server does.
func TaintsUnique() validator.List { return uniqueTaints{} }

type uniqueTaints struct{}

func (uniqueTaints) Description(context.Context) string {
	return "taints must be unique by key and effect"
}
func (u uniqueTaints) MarkdownDescription(ctx context.Context) string {
	return u.Description(ctx)
}

func (uniqueTaints) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	var taints []TaintModel
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ElementsAs(ctx, &taints, false).HasError() {
		return
	}
	seen := map[[2]string]int{}
	for i, t := range taints {
		if t.Key.IsUnknown() || t.Effect.IsUnknown() {
			continue
		}
		k := [2]string{t.Key.ValueString(), t.Effect.ValueString()}
		if j, dup := seen[k]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Duplicate taint",
				fmt.Sprintf("Attribute %s: taint %d repeats taint %d (key %q, effect %q): taints must be unique by key and effect", req.Path.AtListIndex(i), i, j, k[0], k[1]))
		}
		seen[k] = i
	}
}

// TolerationRules applies the API server's rules that tie a toleration's fields together.
func TolerationRules() validator.Object { return tolerationRules{} }

type tolerationRules struct{}

func (tolerationRules) Description(context.Context) string {
	return "operator must be Exists when key is empty; value must be empty with Exists; toleration_seconds only with effect NoExecute"
}
func (t tolerationRules) MarkdownDescription(ctx context.Context) string { return t.Description(ctx) }

func (tolerationRules) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var t TolerationModel
	if req.ConfigValue.As(ctx, &t, objectAsOptions).HasError() {
		return
	}
	known := func(vs ...attr.Value) bool {
		for _, v := range vs {
			if v.IsUnknown() {
				return false
			}
		}
		return true
	}
	if !known(t.Key, t.Operator, t.Value, t.Effect, t.TolerationSeconds) {
		return
	}
	exists := t.Operator.ValueString() == string(corev1.TolerationOpExists)
	if t.Key.ValueString() == "" && !exists {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("operator"), "Invalid toleration",
			fmt.Sprintf("Attribute %s must be \"Exists\" when key is empty (which tolerates every taint)", req.Path.AtName("operator")))
	}
	if exists && t.Value.ValueString() != "" {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("value"), "Invalid toleration",
			fmt.Sprintf("Attribute %s must be empty when operator is \"Exists\", got %q", req.Path.AtName("value"), t.Value.ValueString()))
	}
	if !t.TolerationSeconds.IsNull() && t.Effect.ValueString() != string(corev1.TaintEffectNoExecute) {
		resp.Diagnostics.AddAttributeError(req.Path.AtName("toleration_seconds"), "Invalid toleration",
			fmt.Sprintf("Attribute %s may only be set with effect \"NoExecute\"", req.Path.AtName("toleration_seconds")))
	}
}

// ExpandTaints converts taints to their apply configuration.
func ExpandTaints(in []TaintModel) []*corev1ac.TaintApplyConfiguration {
	out := make([]*corev1ac.TaintApplyConfiguration, 0, len(in))
	for _, t := range in {
		ac := corev1ac.Taint().WithKey(t.Key.ValueString()).WithEffect(corev1.TaintEffect(t.Effect.ValueString()))
		if !t.Value.IsNull() {
			ac.WithValue(t.Value.ValueString())
		}
		out = append(out, ac)
	}
	return out
}

// FlattenTaints converts live taints back; an empty list keeps prior's nil-or-empty shape.
func FlattenTaints(in []corev1.Taint, prior []TaintModel) []TaintModel {
	if len(in) == 0 {
		return emptyLike(prior)
	}
	out := make([]TaintModel, len(in))
	for i, t := range in {
		out[i] = TaintModel{Key: types.StringValue(t.Key), Value: OptionalString(t.Value), Effect: types.StringValue(string(t.Effect))}
	}
	return out
}

// ExpandTolerations converts tolerations to their apply configuration.
func ExpandTolerations(in []TolerationModel) []*corev1ac.TolerationApplyConfiguration {
	out := make([]*corev1ac.TolerationApplyConfiguration, 0, len(in))
	for _, t := range in {
		ac := corev1ac.Toleration()
		if !t.Key.IsNull() {
			ac.WithKey(t.Key.ValueString())
		}
		if !t.Operator.IsNull() {
			ac.WithOperator(corev1.TolerationOperator(t.Operator.ValueString()))
		}
		if !t.Value.IsNull() {
			ac.WithValue(t.Value.ValueString())
		}
		if !t.Effect.IsNull() {
			ac.WithEffect(corev1.TaintEffect(t.Effect.ValueString()))
		}
		if !t.TolerationSeconds.IsNull() {
			ac.WithTolerationSeconds(t.TolerationSeconds.ValueInt64())
		}
		out = append(out, ac)
	}
	return out
}

// FlattenTolerations converts live tolerations back; an empty list keeps prior's shape.
func FlattenTolerations(in []corev1.Toleration, prior []TolerationModel) []TolerationModel {
	if len(in) == 0 {
		return emptyLike(prior)
	}
	out := make([]TolerationModel, len(in))
	for i, t := range in {
		out[i] = TolerationModel{
			Key:               OptionalString(t.Key),
			Operator:          OptionalString(string(t.Operator)),
			Value:             OptionalString(t.Value),
			Effect:            OptionalString(string(t.Effect)),
			TolerationSeconds: types.Int64PointerValue(t.TolerationSeconds),
		}
	}
	return out
}

// emptyLike returns an empty list when prior was an empty list and null when it was null, so an
// explicit `[]` in configuration and an omitted attribute both read back without a diff.
func emptyLike[T any](prior []T) []T {
	if prior != nil {
		return []T{}
	}
	return nil
}
