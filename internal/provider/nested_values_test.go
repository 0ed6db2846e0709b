package provider_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/provider"
)

// Every value of every resource and data source configuration (nestedBases and nestedDataBases,
// whose types must be the ones the provider serves), and of the provider's, is in turn made
// unknown, as a value taken from another resource is at plan, and every element of a map, list or
// set is in turn made null. An unknown value must validate and plan (configure, for the
// provider); a null element must be refused when Terraform validates the configuration, on the
// attribute that holds it. Neither may make the provider fail on its own values (a Value
// Conversion Error, "always an error in the provider") or panic.
func TestNestedNullAndUnknownValues(t *testing.T) {
	resources, dataSources := acctest.ProviderTypes(t)
	acctest.CheckEveryType(t, "nestedBases", resources, slices.Sorted(maps.Keys(nestedBases)))
	acctest.CheckEveryType(t, "nestedDataBases", dataSources, slices.Sorted(maps.Keys(nestedDataBases)))
	host, requests := acctest.UnreachableCluster(t)
	s := provider.NewServer("test")()
	schemas, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || hasError(schemas.Diagnostics) {
		t.Fatalf("GetProviderSchema: %v %s", err, texts(schemas.Diagnostics))
	}
	t.Run("provider", func(t *testing.T) {
		typ := schemas.Provider.ValueType()
		sweep(t, schemas.Provider, providerBases(host), func(v tftypes.Value) []*tfprotov6.Diagnostic {
			if diags := validateProvider(s, typ, v); hasError(diags) {
				return diags
			}
			return configure(s, typ, v)
		}, func(v tftypes.Value, m mutation) {
			checkMutation(t, m, validateProvider(s, typ, v), func() []*tfprotov6.Diagnostic { return configure(s, typ, v) })
		})
	})
	base, _ := fromJSON(providerBases(host)[0], schemas.Provider.ValueType())
	if diags := configure(s, schemas.Provider.ValueType(), base); hasError(diags) {
		t.Fatalf("configuring the provider: %s", texts(diags))
	}
	// Each plan is a run of its own, with the provider configured afresh, as Terraform does: one
	// configuration's plan-time claims (two resources writing one object) are not another's.
	reconfigure := func() { configure(s, schemas.Provider.ValueType(), base) }
	for name, sch := range schemas.ResourceSchemas {
		t.Run(name, func(t *testing.T) {
			typ := sch.ValueType()
			sweep(t, sch, nestedBases[name], func(v tftypes.Value) []*tfprotov6.Diagnostic {
				reconfigure()
				return validateAndPlan(s, name, typ, v, false)
			}, func(v tftypes.Value, m mutation) {
				checkMutation(t, m, validate(s, name, typ, v, false), func() []*tfprotov6.Diagnostic {
					reconfigure()
					return plan(s, name, typ, v)
				})
			})
		})
	}
	for name, sch := range schemas.DataSourceSchemas {
		t.Run("data."+name, func(t *testing.T) {
			typ := sch.ValueType()
			sweep(t, sch, nestedDataBases[name], func(v tftypes.Value) []*tfprotov6.Diagnostic {
				return validateAndPlan(s, name, typ, v, true)
			}, func(v tftypes.Value, m mutation) {
				// Terraform reads a data source only once its configuration is known.
				checkMutation(t, m, validate(s, name, typ, v, true), func() []*tfprotov6.Diagnostic {
					if m.null {
						return read(s, name, typ, v)
					}
					return nil
				})
			})
		})
	}
	if n := requests(); n != 0 {
		t.Errorf("the sweep made %d API requests; want none", n)
	}
}

// sweep checks that each base plans cleanly (plans reports what its plan, read or configure
// reports), then passes each of its mutations to check, and fails when a map, list or set
// attribute of the schema is set by no base (so not swept).
func sweep(t *testing.T, sch *tfprotov6.Schema, bases []string, plans func(tftypes.Value) []*tfprotov6.Diagnostic, check func(tftypes.Value, mutation)) {
	if len(bases) == 0 {
		t.Fatal("no base configuration to mutate")
	}
	typ, covered := sch.ValueType(), map[string]bool{}
	for i, b := range bases {
		base, err := fromJSON(b, typ)
		if err != nil {
			t.Fatalf("base %d: %v", i, err)
		}
		if diags := plans(base); hasError(diags) {
			t.Fatalf("base %d does not plan cleanly: %s", i, texts(diags))
		}
		ms := mutations(sch.Block, base)
		t.Logf("base %d: %d mutations", i, len(ms))
		for _, m := range ms {
			covered[schemaPath(m.path)] = true
			v, err := tftypes.Transform(base, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
				if p.Equal(m.path) {
					return m.value(v.Type()), nil
				}
				return v, nil
			})
			if err != nil {
				t.Fatalf("base %d, %s: %v", i, m, err)
			}
			m.base = i
			check(v, m)
		}
	}
	for _, p := range collections("", sch.Block) {
		if !covered[p] {
			t.Errorf("no base sets %s, so its elements are not swept", p)
		}
	}
}

// fromJSON is a configuration written as JSON, as Terraform would send it.
func fromJSON(config string, typ tftypes.Type) (tftypes.Value, error) {
	return (&tfprotov6.DynamicValue{JSON: []byte(config)}).Unmarshal(typ)
}

// checkMutation judges a mutation by what validating it reported and, when it is valid, what the
// next step (plan, read, configure) reports.
func checkMutation(t *testing.T, m mutation, diags []*tfprotov6.Diagnostic, next func() []*tfprotov6.Diagnostic) {
	t.Helper()
	if slices.ContainsFunc(diags, internal) {
		t.Errorf("%s: the provider failed on it when validating: %s", m, texts(diags))
		return
	}
	if m.null {
		if !slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool { return isError(d) && names(d, m.path) }) {
			t.Errorf("%s: not refused when validated (validate: %s; then: %s)", m, texts(diags), texts(next()))
		}
		return
	}
	if diags = withoutRequiredInside(diags, m.path); hasError(diags) {
		t.Errorf("%s: refused when validated: %s", m, texts(diags))
		return
	}
	if diags := next(); hasError(diags) {
		t.Errorf("%s: failed after validation: %s", m, texts(diags))
	}
}

// withoutRequiredInside leaves out the framework's refusal of an unknown object whose required
// attributes it takes for null (terraform-plugin-framework v1.19 validates the nested attributes of
// an unknown element of a list or map nested attribute as if they were null): Terraform does send
// such an element (`node_taints = [terraform_data.t.output]`), but the refusal is the framework's.
func withoutRequiredInside(diags []*tfprotov6.Diagnostic, p *tftypes.AttributePath) []*tfprotov6.Diagnostic {
	return slices.DeleteFunc(slices.Clone(diags), func(d *tfprotov6.Diagnostic) bool {
		return d.Summary == "Missing Configuration for Required Attribute" && d.Attribute != nil &&
			len(d.Attribute.Steps()) > len(p.Steps()) &&
			tftypes.NewAttributePathWithSteps(d.Attribute.Steps()[:len(p.Steps())]).Equal(p)
	})
}

// mutation is one value of a base made unknown, or one element made null.
type mutation struct {
	path *tftypes.AttributePath
	null bool
	base int // the index of the base mutated
}

func (m mutation) String() string {
	what := "unknown "
	if m.null {
		what = "null "
	}
	return fmt.Sprintf("base %d, %s%s", m.base, what, m.path)
}

func (m mutation) value(typ tftypes.Type) tftypes.Value {
	if m.null {
		return tftypes.NewValue(typ, nil)
	}
	return tftypes.NewValue(typ, tftypes.UnknownValue)
}

// mutations are, for every value set in base, the value unknown, and for every element of a
// map, list or set attribute, the element null. Blocks have neither null nor unknown elements in
// Terraform (a dynamic block over an unknown collection makes the whole block list unknown).
func mutations(b *tfprotov6.SchemaBlock, base tftypes.Value) []mutation {
	var out []mutation
	_ = tftypes.Walk(base, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		steps := p.Steps()
		if len(steps) == 0 || v.IsNull() {
			return true, nil
		}
		if blockElement(b, steps) {
			return true, nil
		}
		out = append(out, mutation{path: p})
		if _, named := steps[len(steps)-1].(tftypes.AttributeName); !named {
			out = append(out, mutation{path: p, null: true})
		}
		return true, nil
	})
	return out
}

// blockElement reports whether steps lead to an element of a nested block.
func blockElement(b *tfprotov6.SchemaBlock, steps []tftypes.AttributePathStep) bool {
	for i := 0; i < len(steps); i++ {
		name, ok := steps[i].(tftypes.AttributeName)
		if !ok {
			return false
		}
		nb := nestedBlock(b, string(name))
		if nb == nil {
			return false // an attribute, nested or not
		}
		if nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle {
			b = nb.Block
			continue
		}
		if i+1 == len(steps)-1 {
			return true
		}
		b, i = nb.Block, i+1
	}
	return false
}

func nestedBlock(b *tfprotov6.SchemaBlock, name string) *tfprotov6.SchemaNestedBlock {
	for _, nb := range b.BlockTypes {
		if nb.TypeName == name {
			return nb
		}
	}
	return nil
}

// collections lists the map, list and set attributes of b and of its nested attributes and
// blocks that configuration may set, as schemaPath names them.
func collections(prefix string, b *tfprotov6.SchemaBlock) []string {
	var out []string
	for _, a := range b.Attributes {
		out = append(out, attributeCollections(prefix+a.Name, a)...)
	}
	for _, nb := range b.BlockTypes {
		inner := prefix + nb.TypeName + "[*]."
		if nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle {
			inner = prefix + nb.TypeName + "."
		}
		out = append(out, collections(inner, nb.Block)...)
	}
	return out
}

func attributeCollections(name string, a *tfprotov6.SchemaAttribute) []string {
	if a.Computed && !a.Optional && !a.Required {
		return nil
	}
	if a.NestedType != nil {
		var out []string
		inner := name + "."
		if a.NestedType.Nesting != tfprotov6.SchemaObjectNestingModeSingle {
			out = append(out, name+"[*]")
			inner = name + "[*]."
		}
		for _, n := range a.NestedType.Attributes {
			out = append(out, attributeCollections(inner+n.Name, n)...)
		}
		return out
	}
	switch a.Type.(type) {
	case tftypes.List, tftypes.Map, tftypes.Set:
		return []string{name + "[*]"}
	}
	return nil
}

// schemaPath names the attribute a mutation's path is in: element steps as [*], attribute names
// after a dot; an element's own path ends in [*].
func schemaPath(p *tftypes.AttributePath) string {
	var b strings.Builder
	for _, s := range p.Steps() {
		if n, ok := s.(tftypes.AttributeName); ok {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), ".") {
				b.WriteString(".")
			}
			b.WriteString(string(n))
			continue
		}
		b.WriteString("[*].")
	}
	return strings.TrimSuffix(b.String(), ".")
}

// names reports whether d is on the attribute that holds path, or on path itself.
func names(d *tfprotov6.Diagnostic, p *tftypes.AttributePath) bool {
	if d.Attribute == nil || len(d.Attribute.Steps()) == 0 {
		return false
	}
	at, steps := d.Attribute.Steps(), p.Steps()
	return len(at) <= len(steps) && tftypes.NewAttributePathWithSteps(steps[:len(at)]).Equal(d.Attribute) && len(at) >= len(steps)-1
}
