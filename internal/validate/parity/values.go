package parity

import (
	"regexp"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Path steps below a property: an item of a list (the first) or a value of a map (key "k").
const (
	itemStep = "[]"
	mapStep  = "{}"
	mapKey   = "k"
)

// child is the schema one step below s.
func child(s *apiextensionsv1.JSONSchemaProps, step string) *apiextensionsv1.JSONSchemaProps {
	switch step {
	case itemStep:
		if s.Items != nil && s.Items.Schema != nil {
			return s.Items.Schema
		}
	case mapStep:
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			return s.AdditionalProperties.Schema
		}
	default:
		if p, ok := s.Properties[step]; ok {
			return &p
		}
	}
	return &apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: ptrTrue()}
}

func ptrTrue() *bool { b := true; return &b }

// withChange is a copy of obj (of schema root) with the value at path set, or removed when del.
// Missing parents are made with synth, so that they hold their required fields.
func withChange(obj map[string]any, root *apiextensionsv1.JSONSchemaProps, path []string, value any, del bool) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	return put(out, root, path, value, del).(map[string]any)
}

func put(node any, s *apiextensionsv1.JSONSchemaProps, path []string, value any, del bool) any {
	if len(path) == 0 {
		return value
	}
	step, cs := path[0], child(s, path[0])
	switch step {
	case itemStep:
		list, _ := node.([]any)
		if len(list) == 0 {
			list = []any{synth(cs, 0)}
		}
		list[0] = put(list[0], cs, path[1:], value, del)
		return list
	default:
		m, _ := node.(map[string]any)
		if m == nil {
			m, _ = synth(s, 0).(map[string]any)
			if m == nil {
				m = map[string]any{}
			}
		}
		key := step
		if step == mapStep {
			key = mapKey
		}
		if del && len(path) == 1 {
			delete(m, key)
			return m
		}
		cur, ok := m[key]
		if !ok {
			cur = synth(cs, 0)
		}
		m[key] = put(cur, cs, path[1:], value, del)
		return m
	}
}

// synth is a value of schema s that satisfies its type, enum, bounds and (where a candidate string
// matches) pattern, with its required fields; seed makes values of one schema differ from each
// other (list items of a set or a map list).
func synth(s *apiextensionsv1.JSONSchemaProps, seed int) any {
	return synthDepth(s, seed, 0)
}

func synthDepth(s *apiextensionsv1.JSONSchemaProps, seed, depth int) any {
	if len(s.Enum) > 0 {
		var v any
		_ = utiljson.Unmarshal(s.Enum[seed%len(s.Enum)].Raw, &v)
		return v
	}
	if s.XIntOrString {
		if s.Pattern != "" {
			return synthString(s, seed)
		}
		return int64(1 + seed)
	}
	switch s.Type {
	case "object":
		m := map[string]any{}
		if depth > 12 {
			return m
		}
		for _, r := range s.Required {
			m[r] = synthDepth(child(s, r), seed, depth+1)
		}
		return m
	case "array":
		list := []any{}
		if s.MinItems != nil {
			for i := range int(*s.MinItems) {
				list = append(list, synthDepth(child(s, itemStep), seed+i, depth+1))
			}
		}
		return list
	case "string":
		return synthString(s, seed)
	case "integer":
		return int64(lowest(s) + float64(seed))
	case "number":
		return lowest(s) + float64(seed) + 0.5
	case "boolean":
		return seed%2 == 0
	}
	return map[string]any{} // preserved unknown fields, or a schema without a type
}

func lowest(s *apiextensionsv1.JSONSchemaProps) float64 {
	switch {
	case s.Minimum != nil && s.ExclusiveMinimum:
		return *s.Minimum + 1
	case s.Minimum != nil:
		return *s.Minimum
	case s.Maximum != nil && *s.Maximum < 1:
		return *s.Maximum - 1
	}
	return 1
}

// candidates are strings tried, in order, for a string field with a pattern or a format.
var candidates = []string{
	"a", "abc", "a1", "1", "10", "10%", "100m", "1Gi", "a-b", "a.b", "example.com/a", "a/b", "A", "Abc",
	"a_b", "10s", "1h", "5m0s", "0 * * * *", "us-east-1a", "ami-0123456789abcdef0", "sg-0123456789abcdef0",
	"subnet-0123456789abcdef0", "al2023@latest", "arn:aws:iam::123456789012:instance-profile/a",
	"2024-01-01T00:00:00Z", "0", "1.5", "v1", "true", "/dev/xvda", "",
}

// outsidePattern are strings tried, in order, for one a pattern refuses.
var outsidePattern = []string{"Not Valid!", "-", "", "a", "1"}

func synthString(s *apiextensionsv1.JSONSchemaProps, seed int) string {
	var matching []string
	for _, c := range candidates {
		if fits(s, c) {
			matching = append(matching, c)
		}
	}
	if len(matching) == 0 {
		return strings.Repeat("a", max(1, minLength(s)))
	}
	v := matching[seed%len(matching)]
	if seed >= len(matching) && fits(s, v+strconv.Itoa(seed)) {
		v += strconv.Itoa(seed)
	}
	return v
}

func minLength(s *apiextensionsv1.JSONSchemaProps) int {
	if s.MinLength != nil {
		return int(*s.MinLength)
	}
	return 0
}

// fits reports whether v satisfies s's pattern, length and format (the formats the CRDs use).
func fits(s *apiextensionsv1.JSONSchemaProps, v string) bool {
	if s.Pattern != "" && !matches(s.Pattern, v) {
		return false
	}
	if len(v) < minLength(s) || (s.MaxLength != nil && int64(len(v)) > *s.MaxLength) {
		return false
	}
	switch s.Format {
	case "date-time":
		return v == "2024-01-01T00:00:00Z"
	case "duration":
		return v == "10s" || v == "1h" || v == "5m0s"
	}
	return v != "" || minLength(s) == 0
}

var patterns = map[string]*regexp.Regexp{}

func matches(pattern, v string) bool {
	re, ok := patterns[pattern]
	if !ok {
		re, _ = regexp.Compile(pattern)
		patterns[pattern] = re
	}
	return re != nil && re.MatchString(v)
}
