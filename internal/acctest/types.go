package acctest

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/provider"
)

// ProviderTypes are the resource and the data source type names the provider serves, sorted, as
// Terraform learns them (GetProviderSchema). A test that claims to cover every type compares its
// cases with them (CheckEveryType) rather than with a list of its own, so that a type added to
// the provider and not to the test fails the test instead of being left out silently.
func ProviderTypes(t testing.TB) (resources, dataSources []string) {
	t.Helper()
	resp, err := provider.NewServer("test")().GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatalf("GetProviderSchema: %v", err)
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
		}
	}
	return slices.Sorted(maps.Keys(resp.ResourceSchemas)), slices.Sorted(maps.Keys(resp.DataSourceSchemas))
}

// CheckEveryType fails t unless covered names exactly the types of served (the provider's, from
// ProviderTypes): what names covered, e.g. "the bad-input corpus", lacks no type the provider
// serves and names none it does not (a renamed or removed type).
func CheckEveryType(t testing.TB, what string, served, covered []string) {
	t.Helper()
	for _, typ := range served {
		if !slices.Contains(covered, typ) {
			t.Errorf("%s does not cover %s, which the provider serves", what, typ)
		}
	}
	for _, typ := range covered {
		if !slices.Contains(served, typ) {
			t.Errorf("%s covers %s, which the provider does not serve", what, typ)
		}
	}
}
