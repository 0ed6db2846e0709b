package validate

import (
	"context"
	"regexp"

	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Since v1.15 an EC2NodeClass's spec.kubelet is an open map the apiserver does not check.
// Karpenter's nodeclass controller checks it (v1.ValidateKubeletConfig) and, on a refusal, sets
// ValidationSucceeded=False and launches no node, so an apply succeeds and nothing runs. The
// engine runs the same check as the admission step of the kind, so the plan refuses it instead.

var ec2NodeClassGVK = schema.GroupVersionKind{Group: awsapis.Group, Version: "v1", Kind: "EC2NodeClass"}

// kubeletErrorPath splits upstream's "spec.kubelet.<field>[<key>]: <detail>" into path and detail.
var kubeletErrorPath = regexp.MustCompile(`^(spec\.kubelet(?:\.[A-Za-z]+)?(?:\[[^\]]*\])?): (.*)$`)

func admitEC2NodeClass(_ context.Context, u map[string]any) (field.ErrorList, error) {
	nc := &awsv1.EC2NodeClass{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, nc); err != nil {
		return nil, convertError("EC2NodeClass", err)
	}
	var out field.ErrorList
	for _, err := range awsv1.ValidateKubeletConfig(nc.Spec.Kubelet) {
		m := kubeletErrorPath.FindStringSubmatch(err.Error())
		if m == nil {
			out = append(out, textRefusal(err.Error()))
			continue
		}
		out = append(out, &field.Error{Type: field.ErrorTypeInvalid, Field: m[1], BadValue: field.OmitValueType{}, Detail: m[2]})
	}
	return out, nil
}
