package provider

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type requestMarker struct{}

// collectedAfterRequest answers a ValidateResourceConfig on srv with a context that carries a
// value, and reports whether that value can be collected once the request is answered.
func collectedAfterRequest(t *testing.T, srv tfprotov6.ProviderServer, req *tfprotov6.ValidateResourceConfigRequest) bool {
	t.Helper()
	defer runtime.KeepAlive(srv) // the server, and what it keeps, outlives the request
	collected := make(chan struct{}, 1)
	func() {
		value := new([64]byte)
		runtime.AddCleanup(value, func(ch chan struct{}) { ch <- struct{}{} }, collected)
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), requestMarker{}, value))
		defer cancel()
		if _, err := srv.ValidateResourceConfig(ctx, req); err != nil {
			t.Fatal(err)
		}
	}()
	for range 10 {
		runtime.GC()
		select {
		case <-collected:
			return true
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}

// TestReleasingServer_requestContextsCollected: a request's context can be collected once the
// request is answered through releasingServer, while the framework alone keeps it (when that
// changes, releasingServer can go).
func TestReleasingServer_requestContextsCollected(t *testing.T) {
	ctx := context.Background()
	framework := providerserver.NewProtocol6(New("test")())()
	schema, err := framework.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schema.ResourceSchemas["mlplatform_resource_flavor"].ValueType().(tftypes.Object)
	attrs := map[string]tftypes.Value{}
	for name, attrType := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(attrType, nil)
	}
	attrs["name"] = tftypes.NewValue(tftypes.String, "a100")
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	req := &tfprotov6.ValidateResourceConfigRequest{TypeName: "mlplatform_resource_flavor", Config: &config}

	if !collectedAfterRequest(t, releasingServer{framework}, req) {
		t.Error("through releasingServer, the request's context is still reachable after the request")
	}
	if collectedAfterRequest(t, framework, req) {
		t.Error("the framework alone no longer keeps a request's context after the request: releasingServer is not needed")
	}
}
