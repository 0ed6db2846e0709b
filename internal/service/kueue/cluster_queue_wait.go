package kueue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// WaitReady waits until Kueue reports the queue Active for the generation just applied. On
// timeout it says what Kueue reported instead and, for FlavorNotFound, which flavors are missing.
// A queue stopped on purpose (stop_policy other than None) is inactive by design: no wait.
// Either way it records the status summary (active, workload counts) of the last read.
func (clusterQueue) WaitReady(ctx context.Context, c *kube.Client, m *clusterQueueModel, objs []*unstructured.Unstructured) error {
	last := objs[0]
	defer func() {
		var cq kueuev1beta2.ClusterQueue
		if runtime.DefaultUnstructuredConverter.FromUnstructured(last.Object, &cq) == nil {
			flattenClusterQueueStatus(&cq, m)
		}
	}()
	if (!m.WaitForActive.IsNull() && !m.WaitForActive.ValueBool()) ||
		(!m.StopPolicy.IsNull() && m.StopPolicy.ValueString() != string(kueuev1beta2.None)) {
		return nil
	}
	read, err := c.WaitConditionTrue(ctx, clusterQueueKind, "", last.GetName(), kueuev1beta2.ClusterQueueActive)
	if read != nil {
		last = read
	}
	var notReady *kube.NotReadyError
	if !errors.As(err, &notReady) {
		return err // Active, or an API error
	}
	if len(notReady.Reported) == 0 {
		return fmt.Errorf("%w: is Kueue's controller manager running and serving kueue.x-k8s.io/v1beta2? Raise the "+
			"create/update timeout, or set wait_for_active = false to skip the wait", err)
	}
	msg := err.Error()
	if cond, _ := kube.FindCondition(last, kueuev1beta2.ClusterQueueActive); cond.Reason == kueuev1beta2.ClusterQueueActiveReasonFlavorNotFound {
		// ctx is spent: look with a fresh one.
		lookCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if missing := missingFlavors(lookCtx, c, last); len(missing) > 0 {
			msg += fmt.Sprintf("\n\nResourceFlavors that do not exist: %s. Declare them (mlplatform_resource_flavor) and "+
				"reference their names, e.g. name = mlplatform_resource_flavor.x.name, so that Terraform creates them first.",
				strings.Join(missing, ", "))
		}
	}
	return errors.New("the ClusterQueue did not become Active in time: " + msg)
}

// missingFlavors are the flavors the queue names that the cluster does not have.
func missingFlavors(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) []string {
	var cq kueuev1beta2.ClusterQueue
	if runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &cq) != nil {
		return nil
	}
	var missing []string
	for _, g := range cq.Spec.ResourceGroups {
		for _, f := range g.Flavors {
			if _, err := c.Get(ctx, resourceFlavorKind, "", string(f.Name)); kube.IsNotFound(err) {
				missing = append(missing, string(f.Name))
			}
		}
	}
	return missing
}
