package provider

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// NewServer returns a constructor of the provider's protocol 6 server, as tf6server.Serve and
// terraform-plugin-testing want it: the framework's server, wrapped in releasingServer. The
// binary and the acceptance tests serve the same.
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		return releasingServer{providerserver.NewProtocol6(New(version)())()}
	}
}

// releasingServer lets go of each request's context once the request is answered.
// terraform-plugin-framework (v1.19.0, internal/proto6server/serve.go, registerContext) keeps the
// cancel function of every request's context until StopProvider, which Terraform sends only on an
// interrupt, and with it the context's whole chain: terraform-plugin-go's loggers and fields, about
// 11 KB a request. So the provider's live heap grew with every object planned or applied (at 1000
// objects, most of it). The framework is handed a context that forwards to the request's own and
// forgets it when the call returns, so what the framework keeps is a few bytes a request.
// Cancellation is unchanged: the framework's context is still a child of the request's.
//
// It wraps the calls Terraform makes once per object (resources, data sources, functions,
// ephemeral resources); the others come once per process. The provider has no list resources,
// actions or state stores, whose optional interfaces it therefore does not forward.
type releasingServer struct{ tfprotov6.ProviderServer }

// released runs call with a context that forwards to ctx until call returns.
func released[Req, Resp any](ctx context.Context, req Req, call func(context.Context, Req) (Resp, error)) (Resp, error) {
	r := &releasableContext{}
	r.held.Store(&heldContext{ctx})
	defer r.held.Store(nil)
	return call(r, req)
}

type heldContext struct{ context.Context }

// releasableContext is a request's context until released, then an empty one (no deadline, never
// done, no values), which is all a context kept after its request may still be asked.
type releasableContext struct{ held atomic.Pointer[heldContext] }

func (r *releasableContext) current() context.Context {
	if h := r.held.Load(); h != nil {
		return h.Context
	}
	return context.Background()
}

func (r *releasableContext) Deadline() (time.Time, bool) { return r.current().Deadline() }
func (r *releasableContext) Done() <-chan struct{}       { return r.current().Done() }
func (r *releasableContext) Err() error                  { return r.current().Err() }
func (r *releasableContext) Value(key any) any           { return r.current().Value(key) }

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceState)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.ImportResourceState)
}

func (s releasingServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.MoveResourceState)
}

func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceIdentity)
}

func (s releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.GenerateResourceConfig)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateDataResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadDataSource)
}

func (s releasingServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return released(ctx, req, s.ProviderServer.CallFunction)
}

func (s releasingServer) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateEphemeralResourceConfig)
}

func (s releasingServer) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.OpenEphemeralResource)
}

func (s releasingServer) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.RenewEphemeralResource)
}

func (s releasingServer) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.CloseEphemeralResource)
}
