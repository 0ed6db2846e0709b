package faulttest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// refusal is one error Terraform reported inside a case's resource: its summary and detail, and
// the source range it is placed on ([from, to), bytes of the configuration; src is that text) in
// the resource's body.
type refusal struct {
	text, src string
	from, to  int
	body      *hclsyntax.Body
}

func (r refusal) String() string { return fmt.Sprintf("[on %q] %s", r.src, r.text) }

// pointsAt reports whether a refusal points at attr, an attribute path as the plugin framework
// writes it (`hardware.cpu_cores`, `levels[1]`, `labels["bad key"]`). Terraform's -json output
// carries no attribute path, only the source range it places an error with one on (placement):
// the refusal must be on the range where Terraform places attr, so that an error on any other
// attribute, or on none, does not count. Where Terraform locates attr itself (an argument, a
// block's, an element of a list or map), that range is proof enough; where it cannot (inside a
// nested attribute it places the error on the body, or on a same-named argument of the body it
// reached), the text must name attr exactly as "Attribute <attr>", as the provider and the
// framework's validators write.
func pointsAt(r refusal, attr string) bool {
	steps, err := parsePath(attr)
	if err != nil {
		panic(fmt.Sprintf("corpus attribute %q: %v", attr, err))
	}
	at, located := placement(r.body, steps)
	// Terraform widens an empty range to one character.
	widened := at.End.Byte == at.Start.Byte && r.to == r.from+1
	if at.Start.Byte != r.from || (at.End.Byte != r.to && !widened) {
		return false
	}
	return located || names(r.text, attr)
}

// names reports whether text holds "Attribute <attr>" with nothing after attr that would make it
// a longer path (`labels` is not named by "Attribute labels[\"a\"]" or "Attribute labels_x").
func names(text, attr string) bool {
	phrase := "Attribute " + attr
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		if !continuesPath(text[i+j+len(phrase):]) {
			return true
		}
		i += j + 1
	}
}

// continuesPath reports whether rest, the text right after a path, continues it: a name
// character, an index, or a dot before a name (a dot before a space ends a sentence).
func continuesPath(rest string) bool {
	if rest == "" {
		return false
	}
	switch c := rest[0]; {
	case c == '_' || c == '[' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		return true
	case c == '.':
		return len(rest) > 1 && (rest[1] == '_' || rest[1] >= 'a' && rest[1] <= 'z')
	}
	return false
}

// pathStep is a step of an attribute path: a name, or (name "") an index into a list or a key
// of a map.
type pathStep struct {
	name, key string
	index     int
	isIndex   bool
}

// parsePath reads an attribute path as the plugin framework writes it: names joined by dots,
// `[<n>]` list indexes and `["<key>"]` map keys.
func parsePath(p string) ([]pathStep, error) {
	var steps []pathStep
	for p != "" {
		switch {
		case strings.HasPrefix(p, `["`):
			q, err := strconv.QuotedPrefix(p[1:])
			if err != nil || !strings.HasPrefix(p[1+len(q):], "]") {
				return nil, fmt.Errorf("a map key not in [\"...\"] at %q", p)
			}
			key, _ := strconv.Unquote(q)
			steps, p = append(steps, pathStep{key: key}), p[len(q)+2:]
		case strings.HasPrefix(p, "["):
			end := strings.Index(p, "]")
			n, err := strconv.Atoi(p[1:max(end, 1)])
			if end < 0 || err != nil {
				return nil, fmt.Errorf("a list index not in [<n>] at %q", p)
			}
			steps, p = append(steps, pathStep{index: n, isIndex: true}), p[end+1:]
		default:
			p = strings.TrimPrefix(p, ".")
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			if end == 0 {
				return nil, fmt.Errorf("an empty name at %q", p)
			}
			steps, p = append(steps, pathStep{name: p[:end]}), p[end:]
		}
	}
	return steps, nil
}

// placement is where Terraform places an error with the attribute path steps in a resource's body
// (tfdiags.ElaborateFromConfigBody, the same in Terraform 1.8 and OpenTofu 1.12): through nested
// blocks by type and index, then on the final attribute's value, or the element or map value an
// index names. A step it cannot follow (a nested attribute's) it skips, and looks the final name
// up in the body it reached; when the name is no argument there, it places the error on that
// body. located is false unless the range is attr's own.
func placement(body *hclsyntax.Body, steps []pathStep) (at hcl.Range, located bool) {
	if len(steps) == 0 || steps[0].name == "" {
		return body.MissingItemRange(), false
	}
	final, traverse := steps[len(steps)-1], steps
	var index *pathStep
	if final.name == "" {
		last := final
		index, final, traverse = &last, steps[len(steps)-2], steps[:len(steps)-1]
	}
	followed := true
	if len(traverse) > 1 {
		body, followed = intoBlocks(body, traverse)
	}
	if final.name == "" {
		return body.MissingItemRange(), false
	}
	attr, ok := body.Attributes[final.name]
	if !ok {
		return body.MissingItemRange(), false
	}
	if index == nil {
		return attr.Expr.Range(), followed
	}
	at, found := elementRange(attr, *index)
	return at, followed && found
}

// intoBlocks follows traverse through nested blocks as Terraform does (traversePathSteps):
// followed is false when a step before the last names no block and was skipped, or when Terraform
// stopped short.
func intoBlocks(body *hclsyntax.Body, traverse []pathStep) (*hclsyntax.Body, bool) {
	followed := true
	for i := 0; i < len(traverse); i++ {
		step := traverse[i]
		if step.name == "" {
			return body, false
		}
		last := i == len(traverse)-1
		var index *pathStep
		if !last && traverse[i+1].name == "" {
			index = &traverse[i+1]
			i++
			last = i == len(traverse)-1
		}
		labels := 0
		if index != nil && !index.isIndex {
			labels = 1 // a map key: Terraform decodes the blocks with one label
		}
		var blocks []*hclsyntax.Block
		for _, b := range body.Blocks {
			if b.Type == step.name {
				if len(b.Labels) != labels {
					return body, false
				}
				blocks = append(blocks, b)
			}
		}
		if len(blocks) == 0 {
			followed = followed && last
			continue
		}
		switch {
		case index == nil && len(blocks) == 1:
			body = blocks[0].Body
		case index != nil && index.isIndex && index.index < len(blocks):
			body = blocks[index.index].Body
		case index != nil && !index.isIndex:
			i := 0
			for i < len(blocks) && blocks[i].Labels[0] != index.key {
				i++
			}
			if i == len(blocks) {
				return body, false
			}
			body = blocks[i].Body
		default:
			return body, false
		}
	}
	return body, followed
}

// elementRange is where Terraform places an index into attr's value
// (hclRangeFromIndexStepAndAttribute): the list element, or the start of the map value.
func elementRange(attr *hclsyntax.Attribute, index pathStep) (hcl.Range, bool) {
	if index.isIndex {
		items, diags := hcl.ExprList(attr.Expr)
		switch {
		case diags.HasErrors():
			return attr.Expr.Range(), false
		case index.index >= len(items):
			return attr.NameRange, false
		}
		return items[index.index].Range(), true
	}
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return attr.Expr.Range(), false
	}
	for _, kv := range pairs {
		key, diags := kv.Key.Value(nil)
		if diags.HasErrors() || key.Type() != cty.String {
			return attr.Expr.Range(), false
		}
		if key.AsString() == index.key {
			return kv.Value.StartRange(), true
		}
	}
	return attr.NameRange, false
}

func covers(r hcl.Range, from, to int) bool { return r.Start.Byte <= from && to <= r.End.Byte }

// pointsAt counts a refusal on the range where Terraform places the attribute: alone where that
// range is the attribute's own, with "Attribute <attr>" in its text where Terraform cannot locate
// it, and never on another range.
func TestPointsAt(t *testing.T) {
	src := `resource "t" "c0" {
  name   = "queue"
  levels = ["a", "b"]
  labels = { "bad key" = "val" }
  nested = { deep = { x = 1 } }
  group {
    other = 1
  }
  group {
    item {
      quota = "q"
    }
  }
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body := f.Body.(*hclsyntax.Body).Blocks[0].Body
	on := func(s, text string) refusal {
		i := strings.Index(src, s)
		return refusal{text: text, src: s, from: i, to: i + len(s), body: body}
	}
	start := body.MissingItemRange().Start.Byte
	onBody := refusal{text: "Invalid: Attribute nested.deep.x: bad", from: start, to: start + 1, body: body}
	for _, c := range []struct {
		r    refusal
		attr string
		want bool
	}{
		{on(`"queue"`, "Invalid: bad"), "name", true},
		{on(`"b"`, "Duplicate: This attribute contains duplicate values"), "levels[1]", true},
		{on(`"b"`, "Invalid: bad"), "levels", false},
		{on(`["a", "b"]`, "Invalid: bad"), "levels[1]", false},
		{on(`val`, "Invalid: bad"), `labels["bad key"]`, true},
		{on(`val`, "Invalid: bad"), "labels", false},
		{on(`"q"`, "Invalid: bad"), "group[1].item[0].quota", true},
		{on(`"q"`, "Invalid: bad"), "group[0].item[0].quota", false},
		{onBody, "nested.deep.x", true},
		{onBody, "nested.deep", false},
		{refusal{text: "Invalid: Attribute nested.deep.xy: bad", from: start, to: start + 1, body: body}, "nested.deep.x", false},
		{refusal{text: "Invalid: attribute nested.deep.x: bad", from: start, to: start + 1, body: body}, "nested.deep.x", false},
		{refusal{text: "Invalid: Attribute nested.deep.x is bad.", from: start, to: start + 1, body: body}, "nested.deep.x", true},
		// Terraform places a nested path ending in `name` on the body's own name.
		{on(`"queue"`, "Invalid: Attribute nested.name: bad"), "nested.name", true},
		{on(`"queue"`, "Invalid: bad"), "nested.name", false},
		{on(`"queue"`, "Invalid: Attribute nested.deep.x: bad"), "nested.deep.x", false},
	} {
		if got := pointsAt(c.r, c.attr); got != c.want {
			t.Errorf("pointsAt(%v, %s) = %v, want %v", c.r, c.attr, got, c.want)
		}
	}
}
