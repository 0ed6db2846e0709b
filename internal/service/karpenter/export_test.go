package karpenter

// Exported for the package's external (acceptance) tests.
var (
	EC2NodeClassKind = ec2NodeClassKind
	NodePoolKind     = nodePoolKind
	NodeOverlayKind  = nodeOverlayKind
)
