package karpenter

import (
	"context"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Each attribute the node class names for an upstream error exists: a renamed or pointed path that
// no longer matches the schema would put the error on the resource instead.
func TestNodeClassUpstreamAttributesExist(t *testing.T) {
	ctx := context.Background()
	nc := nodeClass{}
	s := nc.Schema(ctx)
	attrs := map[string]string{}
	for from, to := range nc.UpstreamPaths(ec2NodeClassKind) {
		attrs[from] = to
	}
	for _, p := range nc.UpstreamPointers(ec2NodeClassKind) {
		attrs[p.Field] = p.To
	}
	for from, to := range attrs {
		if _, ok := framework.UpstreamAttribute(ctx, s, strings.ReplaceAll(to, "[*]", "[0]"), nil); !ok {
			t.Errorf("%s names %s, which the schema lacks", from, to)
		}
	}
	// A field the generic rule would misspell.
	if p, ok := framework.UpstreamAttribute(ctx, s, "spec.metadataOptions.httpProtocolIPv6", nc.UpstreamPaths(ec2NodeClassKind)); !ok ||
		p.String() != "metadata_options.http_protocol_ipv6" {
		t.Errorf("httpProtocolIPv6 is %s, %v", p, ok)
	}
}
