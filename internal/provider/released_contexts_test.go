package provider

import (
	"context"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type requestMarker struct{}

// collectedAfterRequest answers a ValidateResourceConfig on srv with a context that carries a
// value, and reports whether that value is collected once the request is answered: it collects
// until it is, for up to wait. No sleep decides it: runtime.GC returns after a
// whole cycle, swept, and a weak pointer to what that cycle found unreachable is then nil.
func collectedAfterRequest(t *testing.T, srv tfprotov6.ProviderServer, req *tfprotov6.ValidateResourceConfigRequest, wait time.Duration) bool {
	t.Helper()
	defer runtime.KeepAlive(srv) // the server, and what it keeps, outlives the request
	var value weak.Pointer[[64]byte]
	func() {
		v := new([64]byte) // not tiny: the runtime batches only tiny objects, which weak pointers would then miss
		value = weak.Make(v)
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), requestMarker{}, v))
		defer cancel()
		if _, err := srv.ValidateResourceConfig(ctx, req); err != nil {
			t.Fatal(err)
		}
	}()
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		if value.Value() == nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
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

	// A goroutine of the server may hold the context a moment after the answer: a minute for it.
	if !collectedAfterRequest(t, releasingServer{framework}, req, time.Minute) {
		t.Error("through releasingServer, the request's context is still reachable after the request")
	}
	// Still reachable after a second of collections: the framework keeps it. (A load that held it
	// longer would only keep this canary quiet, never fail the test.)
	if collectedAfterRequest(t, framework, req, time.Second) {
		t.Error("the framework alone no longer keeps a request's context after the request: releasingServer is not needed")
	}
}
