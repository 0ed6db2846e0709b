package kube

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Kind is one API resource the provider writes, and what a cluster needs to serve it.
type Kind struct {
	GVR        schema.GroupVersionResource
	Kind       string
	Namespaced bool
	// Requires names what to install when the cluster does not serve GVR, e.g. "Kueue v0.15 or newer".
	Requires string
}

func (k Kind) String() string {
	if k.GVR.Group == "" {
		return k.GVR.Resource
	}
	return k.GVR.Resource + "." + k.GVR.Group
}

func (c *Client) resource(k Kind, namespace string) dynamic.ResourceInterface {
	r := c.dynamic.Resource(k.GVR)
	if k.Namespaced {
		return r.Namespace(namespace)
	}
	return r
}
