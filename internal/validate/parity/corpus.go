package parity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Case is one object of the corpus: a base object with one change at Path.
type Case struct {
	Path   []string
	Change string
	Obj    map[string]any
}

func (c Case) String() string { return pathString(c.Path) + " " + c.Change }

// RuleAt is a CEL rule and the path of the schema node that carries it.
type RuleAt struct {
	Path []string
	apiextensionsv1.ValidationRule
}

// Corpus is the objects of one kind generated from its schema: every enum value and one outside,
// every bound and one past it, every required field removed, duplicates in set and map lists
// (each below a base object), walking nodes at most maxDepth properties below the object.
type Corpus struct {
	Base    map[string]any
	Cases   []Case   // the objects judged, the base object not among them
	Rules   []RuleAt // the CEL rules of the schema
	Walked  int      // schema nodes walked
	Skipped int      // schema nodes deeper than maxDepth, not walked

	root     *apiextensionsv1.JSONSchemaProps
	maxDepth int
}

func newCorpus(root *apiextensionsv1.JSONSchemaProps, base map[string]any, maxDepth int) *Corpus {
	c := &Corpus{root: root, Base: base, maxDepth: maxDepth}
	c.walk(root, nil, 0)
	return c
}

// notWalked are the root's fields the apiserver handles as for every kind (metadata) or ignores
// on create (status), and the type fields.
var notWalked = []string{"apiVersion", "kind", "metadata", "status"}

func (c *Corpus) walk(s *apiextensionsv1.JSONSchemaProps, path []string, depth int) {
	c.Walked++
	for _, r := range s.XValidations {
		c.Rules = append(c.Rules, RuleAt{slices.Clone(path), r})
	}
	if len(path) > 0 {
		c.enum(s, path)
		c.bounds(s, path)
		c.lists(s, path)
	}
	for _, r := range s.Required {
		if len(path) > 0 || !slices.Contains(notWalked, r) {
			c.add(append(slices.Clone(path), r), "removed (required)", nil, true)
		}
	}
	for _, name := range sortedKeys(s.Properties) {
		if len(path) == 0 && slices.Contains(notWalked, name) {
			continue
		}
		p := s.Properties[name]
		if depth == c.maxDepth {
			c.Skipped += nodes(&p)
			continue
		}
		c.walk(&p, append(slices.Clone(path), name), depth+1)
	}
	// An item or a map value is no step down for the depth bound: its fields are.
	if s.Items != nil && s.Items.Schema != nil {
		c.walk(s.Items.Schema, append(slices.Clone(path), itemStep), depth)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		c.walk(s.AdditionalProperties.Schema, append(slices.Clone(path), mapStep), depth)
	}
}

func (c *Corpus) add(path []string, change string, value any, del bool) {
	c.Cases = append(c.Cases, Case{Path: path, Change: change, Obj: withChange(c.Base, c.root, path, value, del)})
}

func (c *Corpus) enum(s *apiextensionsv1.JSONSchemaProps, path []string) {
	if len(s.Enum) == 0 {
		return
	}
	outside := any("NotInEnum")
	for _, e := range s.Enum {
		var v any
		_ = utiljson.Unmarshal(e.Raw, &v)
		c.add(path, "= "+string(e.Raw)+" (enum)", v, false)
		if n, ok := v.(int64); ok {
			if o, ok := outside.(int64); !ok || n >= o {
				outside = n + 1
			}
		}
	}
	c.add(path, fmt.Sprintf("= %v (outside enum)", outside), outside, false)
}

func (c *Corpus) bounds(s *apiextensionsv1.JSONSchemaProps, path []string) {
	step := 1.0
	if s.Type == "number" {
		step = 0.5
	}
	num := func(f float64) any {
		if s.Type == "integer" {
			return int64(f)
		}
		return f
	}
	if s.Minimum != nil {
		c.add(path, fmt.Sprintf("= %v (minimum)", *s.Minimum), num(*s.Minimum), false)
		c.add(path, fmt.Sprintf("= %v (below minimum)", *s.Minimum-step), num(*s.Minimum-step), false)
	}
	if s.Maximum != nil {
		c.add(path, fmt.Sprintf("= %v (maximum)", *s.Maximum), num(*s.Maximum), false)
		c.add(path, fmt.Sprintf("= %v (above maximum)", *s.Maximum+step), num(*s.Maximum+step), false)
	}
	if n := minLength(s); n > 0 {
		c.add(path, fmt.Sprintf("of length %d (minLength)", n), strings.Repeat("a", n), false)
		c.add(path, fmt.Sprintf("of length %d (below minLength)", n-1), strings.Repeat("a", n-1), false)
	}
	if s.MaxLength != nil && *s.MaxLength < 1<<16 {
		n := int(*s.MaxLength)
		c.add(path, fmt.Sprintf("of length %d (maxLength)", n), strings.Repeat("a", n), false)
		c.add(path, fmt.Sprintf("of length %d (above maxLength)", n+1), strings.Repeat("a", n+1), false)
	}
	if s.Pattern != "" {
		if v := synthString(s, 0); fits(s, v) {
			c.add(path, fmt.Sprintf("= %q (pattern)", v), v, false)
		}
		for _, v := range outsidePattern {
			if !matches(s.Pattern, v) {
				c.add(path, fmt.Sprintf("= %q (outside pattern)", v), v, false)
				break
			}
		}
	}
	if s.MinItems != nil && *s.MinItems > 0 {
		n := int(*s.MinItems)
		c.add(path, fmt.Sprintf("with %d items (minItems)", n), items(s, n), false)
		c.add(path, fmt.Sprintf("with %d items (below minItems)", n-1), items(s, n-1), false)
	}
	if s.MaxItems != nil && *s.MaxItems <= 1000 {
		n := int(*s.MaxItems)
		c.add(path, fmt.Sprintf("with %d items (maxItems)", n), items(s, n), false)
		c.add(path, fmt.Sprintf("with %d items (above maxItems)", n+1), items(s, n+1), false)
	}
}

// scale adds the bounds the apiserver puts on the replicas of a kind with a scale subresource (an
// int32, whatever the schema says).
func (c *Corpus) scale(sub *apiextensionsv1.CustomResourceSubresources) {
	if sub == nil || sub.Scale == nil {
		return
	}
	path := strings.Split(strings.TrimPrefix(sub.Scale.SpecReplicasPath, "."), ".")
	c.add(path, "= 2147483647 (scale subresource: largest replicas)", int64(math.MaxInt32), false)
	c.add(path, "= 2147483648 (scale subresource: above int32)", int64(math.MaxInt32)+1, false)
}

// lists adds two equal items to a set or a map list, which the apiserver refuses.
func (c *Corpus) lists(s *apiextensionsv1.JSONSchemaProps, path []string) {
	if t := s.XListType; t != nil && (*t == "set" || *t == "map") {
		item := synth(child(s, itemStep), 0)
		c.add(path, "with a duplicate item (list-type "+*t+")", []any{item, item}, false)
	}
}

// items is a list of n different items of s's item schema.
func items(s *apiextensionsv1.JSONSchemaProps, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = synth(child(s, itemStep), i)
	}
	return out
}

// nodes counts the schema nodes of s, itself included.
func nodes(s *apiextensionsv1.JSONSchemaProps) int {
	n := 1
	for _, p := range s.Properties {
		n += nodes(&p)
	}
	if s.Items != nil && s.Items.Schema != nil {
		n += nodes(s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		n += nodes(s.AdditionalProperties.Schema)
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// pathString is path as the apiserver prints a field path, the first item of a list as [0] and
// the value of a map as [k].
func pathString(path []string) string {
	var b strings.Builder
	for _, p := range path {
		switch p {
		case itemStep:
			b.WriteString("[0]")
		case mapStep:
			b.WriteString("[" + mapKey + "]")
		default:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(p)
		}
	}
	if b.Len() == 0 {
		return "<root>"
	}
	return b.String()
}
