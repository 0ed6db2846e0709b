package parity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// breakRules makes sure the corpus breaks every CEL rule it can: for each rule, the first of the
// corpus's objects, else of the probes below the rule's node, that the judge refuses with that
// rule's message (an object added to the corpus). It returns the rules none breaks, with why.
// The judge only picks the objects: the parity test judges them on both sides.
func (c *Corpus) breakRules(ctx context.Context, judge Judge) (unbroken map[string]string, err error) {
	unbroken = map[string]string{}
	judged := map[int]field.ErrorList{}
	for _, r := range c.Rules {
		name := pathString(r.Path) + ": " + ruleMessage(r.ValidationRule)
		if strings.Contains(r.Rule, "oldSelf") {
			unbroken[name] = TransitionRule
			continue
		}
		broken := false
		for i := range c.Cases {
			if !slices.Equal(c.Cases[i].Path[:min(len(r.Path), len(c.Cases[i].Path))], r.Path) {
				continue
			}
			if _, ok := judged[i]; !ok {
				if judged[i], err = judge(ctx, c.Cases[i].Obj); err != nil {
					return nil, err
				}
			}
			if breaks(judged[i], r) {
				broken = true
				break
			}
		}
		for _, p := range c.probes(r.Path) {
			if broken {
				break
			}
			errs, err := judge(ctx, p.Obj)
			if err != nil {
				return nil, err
			}
			if broken = breaks(errs, r); broken {
				p.Change += " (breaks the rule)"
				c.Cases = append(c.Cases, p)
			}
		}
		if !broken {
			unbroken[name] = "no corpus object or probe breaks it"
		}
	}
	return unbroken, nil
}

// TransitionRule is why a rule on oldSelf is not broken: a create never runs it. Any other rule not
// broken fails the tests: a rule the engine does not run cannot be broken by the engine's pick.
const TransitionRule = "transition rule (oldSelf): a create never runs it"

// ruleMessage is what the apiserver says when a rule fails (ruleMessageOrDefault in
// apiextensions-apiserver's schema/cel, not exported).
func ruleMessage(r apiextensionsv1.ValidationRule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return "failed rule: " + strings.TrimSpace(r.Rule)
}

// breaks reports whether errs hold rule r's error. A rule with a messageExpression says what its
// expression says: any error at its node then counts.
func breaks(errs field.ErrorList, r RuleAt) bool {
	for _, e := range errs {
		if e.Detail == ruleMessage(r.ValidationRule) {
			return true
		}
		if r.MessageExpression != "" && strings.HasPrefix(e.Field, strings.TrimSuffix(pathString(r.Path), "<root>")) &&
			!strings.Contains(e.Detail, "in body") {
			return true
		}
	}
	return false
}

// probes are objects with one change at or below path (at most two properties down): values of
// each node's type that rules often refuse, the node removed, and objects with every field set.
func (c *Corpus) probes(path []string) []Case {
	var out []Case
	var visit func(s *apiextensionsv1.JSONSchemaProps, p []string, depth int)
	visit = func(s *apiextensionsv1.JSONSchemaProps, p []string, depth int) {
		if len(p) > len(path) {
			out = append(out, Case{Path: p, Change: "removed (probe)", Obj: withChange(c.Base, c.root, p, nil, true)})
		}
		for _, v := range alternatives(s) {
			out = append(out, Case{Path: p, Change: fmt.Sprintf("= %.60v (probe)", v), Obj: withChange(c.Base, c.root, p, v, false)})
		}
		if depth == 2 {
			return
		}
		for _, name := range sortedKeys(s.Properties) {
			if len(p) == 0 && slices.Contains(notWalked, name) {
				continue
			}
			visit(child(s, name), append(slices.Clone(p), name), depth+1)
		}
		if s.Items != nil && s.Items.Schema != nil {
			visit(s.Items.Schema, append(slices.Clone(p), itemStep), depth)
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			visit(s.AdditionalProperties.Schema, append(slices.Clone(p), mapStep), depth)
		}
	}
	s := c.root
	for _, step := range path {
		s = child(s, step)
	}
	visit(s, path, 0)
	return out
}

// labelKeys are keys rules of node labels and requirements restrict.
var labelKeys = []string{
	"karpenter.sh/nodepool", "karpenter.sh/capacity-type", "karpenter.k8s.aws/ec2nodeclass", "kubernetes.io/hostname",
	"node.kubernetes.io/instance-type", "topology.kubernetes.io/zone", "kubernetes.io/arch", "example.com/a",
	"node-restriction.kubernetes.io/a", "karpenter.k8s.aws/instance-gpu-count", "karpenter.sh/a", "karpenter.k8s.aws/a",
	"karpenter.sh/nodeclaim", "eks:eks-cluster-name", "kubernetes.io/cluster/a", "", "cpu", "memory", "pods", "memory.available",
}

// alternatives are values of schema s that rules often refuse.
func alternatives(s *apiextensionsv1.JSONSchemaProps) []any {
	out := []any{synth(s, 1), synth(s, 2)}
	if s.XIntOrString {
		return append(out, "0", "-1", "1.5", int64(0), int64(-1), "10%", "101%", "-10%", "1Gi", "0.5n")
	}
	switch s.Type {
	case "string":
		out = append(out, "", "x", "A", "a/b", "-1", "0", strings.Repeat("a", 64))
		for _, k := range labelKeys {
			out = append(out, k)
		}
	case "integer":
		out = append(out, int64(0), int64(-1), int64(1000000))
	case "number":
		out = append(out, 0.0, -1.5, 1e6)
	case "boolean":
		out = append(out, true, false)
	case "array":
		item := synth(child(s, itemStep), 0)
		out = append(out, []any{}, items(s, 2), items(s, 3), []any{item, item})
	case "object":
		out = append(out, map[string]any{}, full(s))
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			for _, k := range labelKeys {
				out = append(out, map[string]any{k: synth(s.AdditionalProperties.Schema, 0)})
			}
		}
	}
	return out
}

// full is a value of object schema s with every property set.
func full(s *apiextensionsv1.JSONSchemaProps) map[string]any {
	m, _ := synth(s, 0).(map[string]any)
	for name, p := range s.Properties {
		if _, ok := m[name]; !ok {
			m[name] = synth(&p, 0)
		}
	}
	return m
}
