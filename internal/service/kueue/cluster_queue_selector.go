package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// The ClusterQueue's namespace_selector. Kueue's webhook checks it with apimachinery's
// ValidateLabelSelector, which the validate engine runs; the attribute validators here are built
// from apimachinery's own validation functions and operator constants.

type labelSelectorModel struct {
	MatchLabels      types.Map                  `tfsdk:"match_labels"`
	MatchExpressions []selectorRequirementModel `tfsdk:"match_expressions"`
}

type selectorRequirementModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Values   types.List   `tfsdk:"values"`
}

var selectorOperators = []string{
	string(metav1.LabelSelectorOpIn), string(metav1.LabelSelectorOpNotIn),
	string(metav1.LabelSelectorOpExists), string(metav1.LabelSelectorOpDoesNotExist),
}

func namespaceSelectorAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Which namespaces may submit workloads to this queue (through their LocalQueues). **Unset " +
			"(null) admits no namespace at all; `namespace_selector = {}` admits every namespace.** Otherwise a namespace " +
			"must match all `match_labels` and `match_expressions`.",
		Attributes: map[string]schema.Attribute{
			"match_labels": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Labels a namespace must have, e.g. `{ \"mlplatform.io/team\" = \"research\" }`.",
				Validators:          framework.LabelMapValidators(),
			},
			"match_expressions": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Label requirements a namespace must meet.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"key": schema.StringAttribute{
							Required:            true,
							MarkdownDescription: "The label key.",
							Validators:          []validator.String{framework.QualifiedName()},
						},
						"operator": schema.StringAttribute{
							Required:            true,
							MarkdownDescription: "The operator: " + oneOf(selectorOperators) + ".",
							Validators:          []validator.String{stringvalidator.OneOf(selectorOperators...)},
						},
						"values": schema.ListAttribute{
							ElementType: types.StringType,
							Optional:    true,
							MarkdownDescription: "Label values: required (non-empty) with `In` and `NotIn`, not allowed with " +
								"`Exists` and `DoesNotExist`.",
							Validators: []validator.List{listvalidator.ValueStringsAre(framework.LabelValue())},
						},
					},
				},
			},
		},
	}
}

func expandLabelSelector(ctx context.Context, m *labelSelectorModel, diags *diag.Diagnostics) *metav1ac.LabelSelectorApplyConfiguration {
	if m == nil {
		return nil
	}
	sel := metav1ac.LabelSelector()
	if !m.MatchLabels.IsNull() {
		labels := map[string]string{}
		diags.Append(m.MatchLabels.ElementsAs(ctx, &labels, false)...)
		sel.WithMatchLabels(labels)
	}
	for _, e := range m.MatchExpressions {
		r := metav1ac.LabelSelectorRequirement().WithKey(e.Key.ValueString()).
			WithOperator(metav1.LabelSelectorOperator(e.Operator.ValueString()))
		var values []string
		diags.Append(e.Values.ElementsAs(ctx, &values, false)...)
		sel.WithMatchExpressions(r.WithValues(values...))
	}
	return sel
}

// flattenLabelSelector reads a selector back. The selector is atomic (one owner for all of it);
// empty lists and maps keep their configured null-or-empty shape.
func flattenLabelSelector(live *metav1.LabelSelector, prior *labelSelectorModel) *labelSelectorModel {
	if live == nil {
		return nil
	}
	if prior == nil {
		prior = &labelSelectorModel{MatchLabels: types.MapNull(types.StringType)}
	}
	out := &labelSelectorModel{MatchLabels: framework.AtomicMap(live.MatchLabels, prior.MatchLabels)}
	if len(live.MatchExpressions) == 0 && prior.MatchExpressions != nil {
		out.MatchExpressions = []selectorRequirementModel{}
	}
	for i, e := range live.MatchExpressions {
		priorValues := types.ListNull(types.StringType)
		if i < len(prior.MatchExpressions) {
			priorValues = prior.MatchExpressions[i].Values
		}
		out.MatchExpressions = append(out.MatchExpressions, selectorRequirementModel{
			Key:      types.StringValue(e.Key),
			Operator: types.StringValue(string(e.Operator)),
			Values:   stringList(e.Values, priorValues),
		})
	}
	return out
}

// stringList is a list of strings; an empty one keeps prior's null-or-empty shape.
func stringList(values []string, prior types.List) types.List {
	if len(values) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.ListNull(types.StringType)
	}
	v, _ := types.ListValueFrom(context.Background(), types.StringType, values)
	if values == nil {
		v, _ = types.ListValueFrom(context.Background(), types.StringType, []string{})
	}
	return v
}
