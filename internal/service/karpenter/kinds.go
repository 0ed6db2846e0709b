// Package karpenter holds the resources for Karpenter on AWS: the EC2NodeClass
// (karpenter.k8s.aws/v1) and GPU node pools made of NodePools (karpenter.sh/v1) and NodeOverlays
// (karpenter.sh/v1alpha1). What a pool writes on its NodePools is the contract in internal/capacity.
package karpenter

import (
	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	"k8s.io/apimachinery/pkg/runtime/schema"
	coreapis "sigs.k8s.io/karpenter/pkg/apis"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

func kind(gv schema.GroupVersion, resource, kindName, req string) kube.Kind {
	return kube.Kind{GVR: gv.WithResource(resource), Kind: kindName, Requires: req}
}

var (
	awsV1            = schema.GroupVersion{Group: awsapis.Group, Version: "v1"}
	coreV1alpha1     = schema.GroupVersion{Group: coreapis.Group, Version: "v1alpha1"}
	ec2NodeClassKind = kind(awsV1, "ec2nodeclasses", "EC2NodeClass", capacity.KarpenterRequires)
	nodeOverlayKind  = kind(coreV1alpha1, "nodeoverlays", "NodeOverlay",
		"Karpenter v1.6 or newer with the NodeOverlay feature gate on (karpenter.sh/v1alpha1)")
)

func gvk(k kube.Kind) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: k.GVR.Group, Version: k.GVR.Version, Kind: k.Kind}
}
