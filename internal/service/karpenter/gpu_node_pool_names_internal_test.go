package karpenter

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// Every object the pool may own (Refs) is valid under the rule of its kind when the pool's name
// is at the limit, and one is not above it: the limit follows the names Refs derives.
func TestPoolNameLimitCoversRefs(t *testing.T) {
	limit, _ := poolNameLimit()
	invalid := func(name string) []string {
		var bad []string
		for _, ref := range (gpuNodePool{}).Refs("", name) {
			check := validation.IsDNS1123Subdomain // NodeOverlays: object names only
			if ref.Kind == capacity.NodePoolKind || ref.Kind == ec2NodeClassKind {
				check = validation.IsValidLabelValue // karpenter.sh/nodepool, karpenter.k8s.aws/ec2nodeclass
			}
			if errs := check(ref.Name); len(errs) > 0 {
				bad = append(bad, ref.String()+": "+strings.Join(errs, "; "))
			}
		}
		return bad
	}
	if bad := invalid(strings.Repeat("a", limit)); len(bad) > 0 {
		t.Errorf("at the limit (%d), invalid: %v", limit, bad)
	}
	if bad := invalid(strings.Repeat("a", limit+1)); len(bad) == 0 {
		t.Errorf("above the limit (%d), every derived name is valid: the limit is too strict", limit)
	}
}
