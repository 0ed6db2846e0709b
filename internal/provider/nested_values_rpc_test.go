package provider_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The provider server's calls as TestNestedNullAndUnknownValues makes them: each returns the
// diagnostics, an error or a panic of the call as one more.

func rpc(call func(context.Context) ([]*tfprotov6.Diagnostic, error)) (diags []*tfprotov6.Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "panic", Detail: fmt.Sprint(r)})
		}
	}()
	diags, err := call(context.Background())
	if err != nil {
		diags = append(diags, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "call failed", Detail: err.Error()})
	}
	return diags
}

// dynamicValue encodes v; it panics (inside rpc) when v is not of typ.
func dynamicValue(typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		panic(err)
	}
	return &dv
}

func validate(s tfprotov6.ProviderServer, name string, typ tftypes.Type, v tftypes.Value, data bool) []*tfprotov6.Diagnostic {
	return rpc(func(ctx context.Context) ([]*tfprotov6.Diagnostic, error) {
		if data {
			r, err := s.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: name, Config: dynamicValue(typ, v)})
			if err != nil {
				return nil, err
			}
			return r.Diagnostics, nil
		}
		r, err := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: name, Config: dynamicValue(typ, v)})
		if err != nil {
			return nil, err
		}
		return r.Diagnostics, nil
	})
}

// plan plans creating a resource of configuration v, as Terraform does once v is valid.
func plan(s tfprotov6.ProviderServer, name string, typ tftypes.Type, v tftypes.Value) []*tfprotov6.Diagnostic {
	return rpc(func(ctx context.Context) ([]*tfprotov6.Diagnostic, error) {
		r, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: name,
			PriorState: dynamicValue(typ, tftypes.NewValue(typ, nil)), ProposedNewState: dynamicValue(typ, v), Config: dynamicValue(typ, v)})
		if err != nil {
			return nil, err
		}
		return r.Diagnostics, nil
	})
}

// readsCluster are the data sources whose read is a request to the cluster, which the sweep
// does not make.
var readsCluster = map[string]bool{"mlplatform_cluster_queue": true, "mlplatform_preflight": true}

// read reads a data source of configuration v, as Terraform does once v is valid and known.
func read(s tfprotov6.ProviderServer, name string, typ tftypes.Type, v tftypes.Value) []*tfprotov6.Diagnostic {
	if readsCluster[name] {
		return nil
	}
	return rpc(func(ctx context.Context) ([]*tfprotov6.Diagnostic, error) {
		r, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: dynamicValue(typ, v)})
		if err != nil {
			return nil, err
		}
		return r.Diagnostics, nil
	})
}

// validateAndPlan validates v and, when it is valid, plans it (reads it, for a data source).
func validateAndPlan(s tfprotov6.ProviderServer, name string, typ tftypes.Type, v tftypes.Value, data bool) []*tfprotov6.Diagnostic {
	if diags := validate(s, name, typ, v, data); hasError(diags) {
		return diags
	}
	if data {
		return read(s, name, typ, v)
	}
	return plan(s, name, typ, v)
}

func validateProvider(s tfprotov6.ProviderServer, typ tftypes.Type, v tftypes.Value) []*tfprotov6.Diagnostic {
	return rpc(func(ctx context.Context) ([]*tfprotov6.Diagnostic, error) {
		r, err := s.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: dynamicValue(typ, v)})
		if err != nil {
			return nil, err
		}
		return r.Diagnostics, nil
	})
}

// configure configures the provider, as Terraform does at plan, unknown values and all.
func configure(s tfprotov6.ProviderServer, typ tftypes.Type, v tftypes.Value) []*tfprotov6.Diagnostic {
	return rpc(func(ctx context.Context) ([]*tfprotov6.Diagnostic, error) {
		r, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: dynamicValue(typ, v)})
		if err != nil {
			return nil, err
		}
		return r.Diagnostics, nil
	})
}

func isError(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError }

func hasError(diags []*tfprotov6.Diagnostic) bool { return slices.ContainsFunc(diags, isError) }

// internal is the provider failing on its own values: a conversion error, or a panic.
func internal(d *tfprotov6.Diagnostic) bool {
	return strings.Contains(d.Detail, "always an error in the provider") || d.Summary == "Value Conversion Error" || d.Summary == "panic"
}

// texts are the errors of diags, one line each, with the attribute they are on.
func texts(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		if isError(d) {
			at := ""
			if d.Attribute != nil {
				at = " [at " + d.Attribute.String() + "]"
			}
			out = append(out, strings.Join(strings.Fields(d.Summary+": "+d.Detail), " ")+at)
		}
	}
	return strings.Join(out, " | ")
}
