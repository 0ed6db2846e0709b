package karpenter

// Exported for the package's external (acceptance) tests.
var (
	EC2NodeClassKind = ec2NodeClassKind
	NodeOverlayKind  = nodeOverlayKind
)
