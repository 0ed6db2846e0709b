package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

func (clusterQueue) Expand(ctx context.Context, m *clusterQueueModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	groups, diags := expandResourceGroups(m.ResourceGroups)
	spec := kueueac.ClusterQueueSpec().
		WithResourceGroups(groups...).
		WithQueueingStrategy(kueuev1beta2.QueueingStrategy(m.QueueingStrategy.ValueString())).
		WithStopPolicy(kueuev1beta2.StopPolicy(m.StopPolicy.ValueString()))
	if !m.Cohort.IsNull() {
		spec.WithCohortName(kueuev1beta2.CohortReference(m.Cohort.ValueString()))
	}
	if sel := expandLabelSelector(ctx, m.NamespaceSelector, &diags); sel != nil {
		spec.WithNamespaceSelector(sel)
	}
	if p := m.Preemption; p != nil {
		ac := kueueac.ClusterQueuePreemption().
			WithReclaimWithinCohort(kueuev1beta2.PreemptionPolicy(p.ReclaimWithinCohort.ValueString())).
			WithWithinClusterQueue(kueuev1beta2.PreemptionPolicy(p.WithinClusterQueue.ValueString()))
		if b := p.BorrowWithinCohort; b != nil {
			bac := kueueac.BorrowWithinCohort().WithPolicy(kueuev1beta2.BorrowWithinCohortPolicy(b.Policy.ValueString()))
			if !b.MaxPriorityThreshold.IsNull() {
				bac.WithMaxPriorityThreshold(int32(b.MaxPriorityThreshold.ValueInt64()))
			}
			ac.WithBorrowWithinCohort(bac)
		}
		spec.WithPreemption(ac)
	}
	if f := m.FlavorFungibility; f != nil {
		ac := kueueac.FlavorFungibility().
			WithWhenCanBorrow(kueuev1beta2.FlavorFungibilityPolicy(f.WhenCanBorrow.ValueString())).
			WithWhenCanPreempt(kueuev1beta2.FlavorFungibilityPolicy(f.WhenCanPreempt.ValueString()))
		if !f.Preference.IsNull() {
			ac.WithPreference(kueuev1beta2.FlavorFungibilityPreference(f.Preference.ValueString()))
		}
		spec.WithFlavorFungibility(ac)
	}
	if fs := expandFairSharing(m.FairSharingWeight, &diags); fs != nil {
		spec.WithFairSharing(fs)
	}
	if !m.AdmissionMode.IsNull() {
		spec.WithAdmissionScope(kueueac.AdmissionScope().WithAdmissionMode(kueuev1beta2.AdmissionMode(m.AdmissionMode.ValueString())))
	}
	if len(m.AdmissionChecksStrategy) > 0 {
		acs := kueueac.AdmissionChecksStrategy()
		for _, c := range m.AdmissionChecksStrategy {
			rule := kueueac.AdmissionCheckStrategyRule().WithName(kueuev1beta2.AdmissionCheckReference(c.Name.ValueString()))
			var flavors []string
			diags.Append(c.OnFlavors.ElementsAs(ctx, &flavors, false)...)
			for _, f := range flavors {
				rule.WithOnFlavors(kueuev1beta2.ResourceFlavorReference(f))
			}
			acs.WithAdmissionChecks(rule)
		}
		spec.WithAdmissionChecksStrategy(acs)
	}
	if c := m.ConcurrentAdmission; c != nil {
		mig := kueueac.ConcurrentAdmissionMigration().WithMode(kueuev1beta2.ConcurrentAdmissionMigrationMode(c.Migration.Mode.ValueString()))
		if k := c.Migration.Constraints; k != nil {
			cons := kueueac.ConcurrentAdmissionConstraints()
			if !k.LastAcceptableFlavorName.IsNull() {
				cons.WithLastAcceptableFlavorName(kueuev1beta2.ResourceFlavorReference(k.LastAcceptableFlavorName.ValueString()))
			}
			mig.WithConstraints(cons)
		}
		spec.WithConcurrentAdmissionPolicy(kueueac.ConcurrentAdmissionPolicy().WithMigration(mig))
	}
	return kueueac.ClusterQueue(meta.Name).WithLabels(meta.Labels).WithAnnotations(meta.Annotations).WithSpec(spec), diags
}

// expandFairSharing is the fairSharing of a ClusterQueue or Cohort, nil when no weight is set.
func expandFairSharing(weight types.String, diags *diag.Diagnostics) *kueueac.FairSharingApplyConfiguration {
	if weight.IsNull() {
		return nil
	}
	q, err := framework.ParseQuantity(weight.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("fair_sharing_weight"), "Invalid quantity", "Attribute fair_sharing_weight: "+err.Error())
		return nil
	}
	return kueueac.FairSharing().WithWeight(q)
}
