package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

func (clusterQueue) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *clusterQueueModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var cq kueuev1beta2.ClusterQueue
	if !framework.Decode(obj, "ClusterQueue", &cq, &diags) {
		return diags
	}
	s := cq.Spec
	m.Cohort = framework.OptionalString(string(s.CohortName))
	m.NamespaceSelector = flattenLabelSelector(s.NamespaceSelector, m.NamespaceSelector)
	m.QueueingStrategy = types.StringValue(string(s.QueueingStrategy))
	m.StopPolicy = types.StringValue(string(kueuev1beta2.None))
	if s.StopPolicy != nil {
		m.StopPolicy = types.StringValue(string(*s.StopPolicy))
	}
	m.ResourceGroups = flattenResourceGroups(s.ResourceGroups, m.ResourceGroups)
	m.Preemption = flattenPreemption(s.Preemption, m.Preemption, importing)
	m.FlavorFungibility = flattenFungibility(s.FlavorFungibility, m.FlavorFungibility, importing)
	m.FairSharingWeight = flattenFairSharing(s.FairSharing, m.FairSharingWeight, importing)
	m.AdmissionMode = types.StringNull()
	if s.AdmissionScope != nil {
		m.AdmissionMode = framework.OptionalString(string(s.AdmissionScope.AdmissionMode))
	}
	m.AdmissionChecksStrategy = flattenAdmissionChecks(s.AdmissionChecksStrategy, m.AdmissionChecksStrategy)
	m.ConcurrentAdmission = flattenConcurrentAdmission(s.ConcurrentAdmissionPolicy)
	if m.WaitForActive.IsNull() { // imported: the attribute's default
		m.WaitForActive = types.BoolValue(true)
	}
	flattenClusterQueueStatus(&cq, m)
	return diags
}

func flattenClusterQueueStatus(cq *kueuev1beta2.ClusterQueue, m *clusterQueueModel) {
	m.Active = types.BoolValue(isActive(cq))
	m.PendingWorkloads = types.Int64Value(int64(cq.Status.PendingWorkloads))
	m.AdmittedWorkloads = types.Int64Value(int64(cq.Status.AdmittedWorkloads))
}

// Kueue defaults preemption and flavorFungibility (CRD +kubebuilder:default={}), so a queue whose
// configuration leaves them out has them anyway. They are read back only when configured (or,
// on import, when they differ from Kueue's defaults), so the defaults cause no diff.

func flattenPreemption(live *kueuev1beta2.ClusterQueuePreemption, prior *preemptionModel, importing bool) *preemptionModel {
	if live == nil || (prior == nil && (!importing || isDefaultPreemption(live))) {
		return nil
	}
	out := &preemptionModel{
		ReclaimWithinCohort: stringOr(string(live.ReclaimWithinCohort), string(kueuev1beta2.PreemptionPolicyNever)),
		WithinClusterQueue:  stringOr(string(live.WithinClusterQueue), string(kueuev1beta2.PreemptionPolicyNever)),
	}
	var priorBorrow *borrowWithinCohortModel
	if prior != nil {
		priorBorrow = prior.BorrowWithinCohort
	}
	if b := live.BorrowWithinCohort; b != nil && (priorBorrow != nil || (importing && !isDefaultBorrow(b))) {
		out.BorrowWithinCohort = &borrowWithinCohortModel{
			Policy:               stringOr(string(b.Policy), string(kueuev1beta2.BorrowWithinCohortPolicyNever)),
			MaxPriorityThreshold: types.Int64Null(),
		}
		if b.MaxPriorityThreshold != nil {
			out.BorrowWithinCohort.MaxPriorityThreshold = types.Int64Value(int64(*b.MaxPriorityThreshold))
		}
	}
	return out
}

func isDefaultPreemption(p *kueuev1beta2.ClusterQueuePreemption) bool {
	never := kueuev1beta2.PreemptionPolicyNever
	return (p.ReclaimWithinCohort == "" || p.ReclaimWithinCohort == never) &&
		(p.WithinClusterQueue == "" || p.WithinClusterQueue == never) &&
		(p.BorrowWithinCohort == nil || isDefaultBorrow(p.BorrowWithinCohort))
}

func isDefaultBorrow(b *kueuev1beta2.BorrowWithinCohort) bool {
	return (b.Policy == "" || b.Policy == kueuev1beta2.BorrowWithinCohortPolicyNever) && b.MaxPriorityThreshold == nil
}

func flattenFungibility(live *kueuev1beta2.FlavorFungibility, prior *flavorFungibilityModel, importing bool) *flavorFungibilityModel {
	if live == nil {
		return nil
	}
	out := &flavorFungibilityModel{
		WhenCanBorrow:  stringOr(string(live.WhenCanBorrow), string(kueuev1beta2.MayStopSearch)),
		WhenCanPreempt: stringOr(string(live.WhenCanPreempt), string(kueuev1beta2.TryNextFlavor)),
		Preference:     types.StringNull(),
	}
	if live.Preference != nil {
		out.Preference = types.StringValue(string(*live.Preference))
	}
	isDefault := out.WhenCanBorrow.ValueString() == string(kueuev1beta2.MayStopSearch) &&
		out.WhenCanPreempt.ValueString() == string(kueuev1beta2.TryNextFlavor) && out.Preference.IsNull()
	if prior == nil && (!importing || isDefault) {
		return nil
	}
	return out
}

func flattenFairSharing(live *kueuev1beta2.FairSharing, prior types.String, importing bool) types.String {
	if live == nil || live.Weight == nil || (prior.IsNull() && !importing) {
		return types.StringNull()
	}
	return framework.QuantityValue(live.Weight, prior)
}

func flattenAdmissionChecks(live *kueuev1beta2.AdmissionChecksStrategy, prior []admissionCheckStrategyModel) []admissionCheckStrategyModel {
	if live == nil || len(live.AdmissionChecks) == 0 {
		return nil
	}
	out := make([]admissionCheckStrategyModel, len(live.AdmissionChecks))
	for i, c := range live.AdmissionChecks {
		flavors := make([]string, len(c.OnFlavors))
		for j, f := range c.OnFlavors {
			flavors[j] = string(f)
		}
		priorFlavors := types.ListNull(types.StringType)
		if i < len(prior) {
			priorFlavors = prior[i].OnFlavors
		}
		out[i] = admissionCheckStrategyModel{Name: types.StringValue(string(c.Name)), OnFlavors: stringList(flavors, priorFlavors)}
	}
	return out
}

func flattenConcurrentAdmission(live *kueuev1beta2.ConcurrentAdmissionPolicy) *concurrentAdmissionModel {
	if live == nil {
		return nil
	}
	out := &concurrentAdmissionModel{Migration: migrationModel{Mode: types.StringValue(string(live.Migration.Mode))}}
	if c := live.Migration.Constraints; c != nil {
		out.Migration.Constraints = &migrationConstraintModel{LastAcceptableFlavorName: types.StringNull()}
		if c.LastAcceptableFlavorName != nil {
			out.Migration.Constraints.LastAcceptableFlavorName = types.StringValue(string(*c.LastAcceptableFlavorName))
		}
	}
	return out
}

// stringOr is s, or def when the API left s empty.
func stringOr(s, def string) types.String {
	if s == "" {
		return types.StringValue(def)
	}
	return types.StringValue(s)
}

// activeCondition is the queue's Active condition, if Kueue set it for the current generation.
func activeCondition(cq *kueuev1beta2.ClusterQueue) (metav1.Condition, bool) {
	c := apimeta.FindStatusCondition(cq.Status.Conditions, kueuev1beta2.ClusterQueueActive)
	if c == nil || c.ObservedGeneration < cq.Generation {
		return metav1.Condition{}, false
	}
	return *c, true
}
