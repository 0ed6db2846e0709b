package karpenter

import (
	"context"
	"encoding/json"
	"time"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Since Karpenter v1.15 an EC2NodeClass's spec.kubelet is an open map of KubeletConfiguration
// fields, which Karpenter's controller (not the apiserver) checks. The kubelet block writes the
// fields Karpenter itself reads, typed as upstream's ParsedKubeletConfig; package validate runs
// Karpenter's own check of the map at plan.

// expandKubelet is the spec.kubelet map of the kubelet block.
func expandKubelet(ctx context.Context, k *kubeletModel, diags *diag.Diagnostics) awsv1.KubeletConfiguration {
	pc := awsv1.ParsedKubeletConfig{
		PodsPerCore:    int32Ptr(k.PodsPerCore),
		SystemReserved: framework.StringMap(ctx, k.SystemReserved, diags), KubeReserved: framework.StringMap(ctx, k.KubeReserved, diags),
		EvictionHard:                framework.StringMap(ctx, k.EvictionHard, diags),
		EvictionSoft:                framework.StringMap(ctx, k.EvictionSoft, diags),
		EvictionMaxPodGracePeriod:   int32Ptr(k.EvictionMaxPod),
		ImageGCHighThresholdPercent: int32Ptr(k.ImageGCHigh), ImageGCLowThresholdPercent: int32Ptr(k.ImageGCLow),
		CPUCFSQuota: boolPtr(k.CPUCFSQuota),
	}
	if n := int32Ptr(k.MaxPods); n != nil {
		v := intstr.FromInt32(*n)
		pc.MaxPods = &v
	}
	if !k.ClusterDNS.IsNull() {
		diags.Append(k.ClusterDNS.ElementsAs(ctx, &pc.ClusterDNS, false)...)
	}
	for signal, d := range framework.StringMap(ctx, k.EvictionGrace, diags) {
		parsed, err := time.ParseDuration(d)
		if err != nil { // refused at plan by the attribute's validator; kept as a guard
			diags.AddAttributeError(path.Root("kubelet").AtName("eviction_soft_grace_period").AtMapKey(signal), "Invalid duration", err.Error())
			continue
		}
		if pc.EvictionSoftGracePeriod == nil {
			pc.EvictionSoftGracePeriod = map[string]metav1.Duration{}
		}
		pc.EvictionSoftGracePeriod[signal] = metav1.Duration{Duration: parsed}
	}
	kc := awsv1.KubeletConfiguration{}
	b, err := json.Marshal(pc)
	if err == nil {
		err = json.Unmarshal(b, &kc)
	}
	if err != nil {
		diags.AddAttributeError(path.Root("kubelet"), "Encoding spec.kubelet", err.Error())
	}
	return kc
}

// flattenKubelet reads the fields of spec.kubelet the kubelet block has; prior keeps the
// configured spelling of maps and durations that mean the same.
func flattenKubelet(ctx context.Context, kc awsv1.KubeletConfiguration, prior *kubeletModel, diags *diag.Diagnostics) *kubeletModel {
	if kc == nil {
		return nil
	}
	k, err := awsv1.ParseKubeletConfig(kc)
	if err != nil {
		diags.AddAttributeError(path.Root("kubelet"), "Reading spec.kubelet", err.Error())
		return prior
	}
	p := kubeletModel{SystemReserved: types.MapNull(types.StringType), KubeReserved: types.MapNull(types.StringType),
		EvictionHard: types.MapNull(types.StringType), EvictionSoft: types.MapNull(types.StringType),
		EvictionGrace: types.MapNull(types.StringType), ClusterDNS: types.ListNull(types.StringType)}
	if prior != nil {
		p = *prior
	}
	out := &kubeletModel{MaxPods: types.Int64Null(), PodsPerCore: ptrInt32(k.PodsPerCore),
		SystemReserved: framework.AtomicMap(k.SystemReserved, p.SystemReserved),
		KubeReserved:   framework.AtomicMap(k.KubeReserved, p.KubeReserved),
		EvictionHard:   framework.AtomicMap(k.EvictionHard, p.EvictionHard),
		EvictionSoft:   framework.AtomicMap(k.EvictionSoft, p.EvictionSoft),
		EvictionGrace:  flattenGracePeriods(k.EvictionSoftGracePeriod, p.EvictionGrace),
		EvictionMaxPod: ptrInt32(k.EvictionMaxPodGracePeriod),
		ImageGCHigh:    ptrInt32(k.ImageGCHighThresholdPercent), ImageGCLow: ptrInt32(k.ImageGCLowThresholdPercent),
		CPUCFSQuota: ptrBool(k.CPUCFSQuota), ClusterDNS: types.ListNull(types.StringType)}
	if mp := k.MaxPods; mp != nil {
		if mp.Type == intstr.String { // written by another tool: max_pods is a number
			diags.AddAttributeError(path.Root("kubelet").AtName("max_pods"), "Unsupported maxPods",
				"spec.kubelet.maxPods is the CEL expression "+mp.StrVal+", which max_pods cannot hold: set a number.")
		} else {
			out.MaxPods = types.Int64Value(int64(mp.IntVal))
		}
	}
	if len(k.ClusterDNS) > 0 {
		out.ClusterDNS, _ = types.ListValueFrom(ctx, types.StringType, k.ClusterDNS)
	}
	return out
}
