package kueue

import (
	"context"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Upstream's paths of a ClusterQueue land on the attributes of mlplatform_cluster_queue.
func TestClusterQueue_upstreamPaths(t *testing.T) {
	ctx := context.Background()
	s := clusterQueue{}.Schema(ctx)
	for upstream, want := range map[string]string{
		"spec.resourceGroups[0].flavors[1].resources[2].nominalQuota":   "resource_group[0].flavor[1].resource[2].nominal_quota",
		"spec.resourceGroups[0].flavors[1].resources[2].borrowingLimit": "resource_group[0].flavor[1].resource[2].borrowing_limit",
		"spec.resourceGroups[0].coveredResources":                       "resource_group[0].covered_resources",
		"spec.resourceGroups[0]":                                        "resource_group[0]",
		"spec.queueingStrategy":                                         "queueing_strategy",
		"spec.cohortName":                                               "cohort",
		"spec.fairSharing.weight":                                       "fair_sharing_weight",
		"spec.preemption.borrowWithinCohort.maxPriorityThreshold":       "preemption.borrow_within_cohort.max_priority_threshold",
		"spec.admissionChecksStrategy.admissionChecks[1].onFlavors[0]":  "admission_checks_strategy[1].on_flavors[0]",
		"metadata.name":                                                 "name",
		"spec":                                                          "",
	} {
		p, ok := framework.UpstreamAttribute(ctx, s, upstream, clusterQueue{}.UpstreamPaths(clusterQueueKind))
		got := ""
		if ok {
			got = p.String()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", upstream, got, want)
		}
	}
}
