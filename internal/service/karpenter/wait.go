package karpenter

import (
	"context"
	"errors"
	"fmt"

	"github.com/awslabs/operatorpkg/status"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// waitForReadyAttribute is the opt-in wait for Karpenter's Ready condition. It is off by default:
// where Karpenter's controller does not run (a kind cluster, a local control plane), nothing
// would ever report, and every apply would wait out its timeout.
func waitForReadyAttribute(what string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "Wait, within the create or update timeout, until Karpenter reports " + what + " `Ready`, and " +
			"fail with the conditions it reports otherwise (e.g. `SubnetsReady=False` when no subnet matches the selector). " +
			"Default `false`, since on a cluster without Karpenter's controller nothing reports."}
}

// waitReady waits, when wait is true, until Karpenter reports each applied object Ready.
func waitReady(ctx context.Context, c *kube.Client, wait types.Bool, objs []*unstructured.Unstructured) error {
	if !wait.ValueBool() {
		return nil
	}
	for _, obj := range objs {
		k := kindNamed[obj.GetKind()]
		_, err := c.WaitConditionTrue(ctx, k, "", obj.GetName(), status.ConditionReady)
		var notReady *kube.NotReadyError
		if errors.As(err, &notReady) && len(notReady.Reported) == 0 {
			hint := "Is Karpenter's controller running?"
			if k == nodeOverlayKind {
				hint = "Is Karpenter's NodeOverlay feature gate on?"
			}
			return fmt.Errorf("%s %s: %w. %s Raise the timeout, or set wait_for_ready = false to skip the wait", k.Kind, obj.GetName(), err, hint)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", k.Kind, obj.GetName(), err)
		}
	}
	return nil
}

var kindNamed = map[string]kube.Kind{
	ec2NodeClassKind.Kind:      ec2NodeClassKind,
	capacity.NodePoolKind.Kind: capacity.NodePoolKind,
	nodeOverlayKind.Kind:       nodeOverlayKind,
}

func (nodeClass) WaitReady(ctx context.Context, c *kube.Client, m *nodeClassModel, applied []*unstructured.Unstructured) error {
	return waitReady(ctx, c, m.WaitForReady, applied)
}

func (gpuNodePool) WaitReady(ctx context.Context, c *kube.Client, m *gpuNodePoolModel, applied []*unstructured.Unstructured) error {
	return waitReady(ctx, c, m.WaitForReady, applied)
}
