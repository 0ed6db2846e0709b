package framework

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// pathStep is one step of a field path: a field name, or what is in brackets (a list index or a
// map key).
type pathStep struct {
	name    string
	key     string
	bracket bool
}

// parseFieldPath splits a path as field.Path prints it: names joined by dots, and list indexes or
// map keys in brackets, e.g. spec.resourceGroups[0] or metadata.labels[team.example.com/name].
func parseFieldPath(s string) []pathStep {
	var steps []pathStep
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				end = len(s)
			}
			steps = append(steps, pathStep{key: s[1:end], bracket: true})
			s = s[min(end+1, len(s)):]
		default:
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			steps = append(steps, pathStep{name: s[:end]})
			s = s[end:]
		}
	}
	return steps
}

// snakeCase is an upstream field name as attributes are named: nominalQuota is nominal_quota,
// podIPs is pod_ips.
func snakeCase(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			// a plural's final s is not a word: podIPs is pod_ips
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1]) && (i+2 != len(r) || r[i+1] != 's')
			if prevLower || (unicode.IsUpper(r[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// renamed applies the longest of renames that matches steps, and the generic rule to the rest:
// a leading `spec` or `metadata` is dropped (metadata.name is `name`) and names are snake_case.
func renamed(steps []pathStep, renames map[string]string) []pathStep {
	type rule struct{ from, to []pathStep }
	var rules []rule
	for from, to := range renames {
		rules = append(rules, rule{parseFieldPath(from), parseFieldPath(to)})
	}
	slices.SortFunc(rules, func(a, b rule) int { return cmp.Compare(len(b.from), len(a.from)) })
	for _, r := range rules {
		indexes, ok := matchPrefix(r.from, steps)
		if !ok {
			continue
		}
		out := make([]pathStep, 0, len(r.to)+len(steps)-len(r.from))
		for _, s := range r.to {
			if s.bracket && s.key == "*" {
				if len(indexes) == 0 {
					continue
				}
				s.key, indexes = indexes[0], indexes[1:]
			}
			out = append(out, s)
		}
		return append(out, generic(steps[len(r.from):])...)
	}
	if len(steps) > 0 && (steps[0].name == "spec" || steps[0].name == "metadata") {
		steps = steps[1:]
	}
	return generic(steps)
}

// matchPrefix reports whether pattern is a prefix of steps, and the indexes its `[*]` matched.
func matchPrefix(pattern, steps []pathStep) ([]string, bool) {
	if len(pattern) > len(steps) {
		return nil, false
	}
	var indexes []string
	for i, p := range pattern {
		s := steps[i]
		switch {
		case p.bracket && p.key == "*" && s.bracket:
			indexes = append(indexes, s.key)
		case p != s:
			return nil, false
		}
	}
	return indexes, true
}

func generic(steps []pathStep) []pathStep {
	out := make([]pathStep, len(steps))
	for i, s := range steps {
		if !s.bracket {
			s.name = snakeCase(s.name)
		}
		out[i] = s
	}
	return out
}

// UpstreamAttribute is the attribute an upstream field path (as field.Path prints it) comes from,
// by renames and the generic rule, if the schema has it. An index into a set attribute names the
// set, whose elements have no index.
func UpstreamAttribute(ctx context.Context, s schema.Schema, upstream string, renames map[string]string) (path.Path, bool) {
	if upstream == "" || upstream == "<nil>" {
		return path.Empty(), false
	}
	p := path.Empty()
	orig := parseFieldPath(upstream)
	steps := renamed(orig, renames)
	for i, step := range steps {
		if !step.bracket {
			// The CRD's schema checks print a map's key as a field (spec.parameters.maxRunDuration):
			// the key as written, which the generic rule's tail keeps one for one.
			if t, d := s.TypeAtPath(ctx, p); len(p.Steps()) > 0 && !d.HasError() && t.TerraformType(ctx).Is(tftypes.Map{}) {
				key := step.name
				if j := len(orig) - (len(steps) - i); j >= 0 && snakeCase(orig[j].name) == step.name {
					key = orig[j].name
				}
				p = p.AtMapKey(key)
				continue
			}
			next := p.AtName(step.name)
			if _, d := s.TypeAtPath(ctx, next); d.HasError() {
				return path.Empty(), false
			}
			p = next
			continue
		}
		t, d := s.TypeAtPath(ctx, p)
		if d.HasError() || len(p.Steps()) == 0 {
			return path.Empty(), false
		}
		switch tt := t.TerraformType(ctx); {
		case tt.Is(tftypes.List{}):
			i, err := strconv.ParseInt(step.key, 10, 64)
			if err != nil {
				return path.Empty(), false
			}
			p = p.AtListIndex(int(i))
		case tt.Is(tftypes.Map{}):
			p = p.AtMapKey(step.key)
		case tt.Is(tftypes.Set{}):
			return p, true
		default:
			return path.Empty(), false
		}
	}
	return p, len(p.Steps()) > 0
}

// UpstreamPointer names attribute To for an upstream error whose field is Field (each `[*]`
// matches a list index, carried in order to the `[*]` of To) and whose text contains Message.
type UpstreamPointer struct {
	Field, Message, To string
}

// pointedAttribute is the attribute path a pointer of pointers names for an error on field
// upstream with text text, as a path UpstreamAttribute reads.
func pointedAttribute(upstream, text string, pointers []UpstreamPointer) (string, bool) {
	steps := parseFieldPath(upstream)
	for _, p := range pointers {
		from := parseFieldPath(p.Field)
		indexes, ok := matchPrefix(from, steps)
		if !ok || len(from) != len(steps) || !strings.Contains(text, p.Message) {
			continue
		}
		to := p.To
		for _, i := range indexes {
			to = strings.Replace(to, "[*]", "["+i+"]", 1)
		}
		return to, true
	}
	return "", false
}
