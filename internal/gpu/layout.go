package gpu

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Layout is a MIG layout of one GPU: profile name -> number of instances.
// Every GPU of a node gets the same layout (as mig-parted's "devices: all").
// Entries with count 0 mean nothing and are ignored.
type Layout map[string]int

// maxParsedCount bounds counts in ParseLayout; no GPU has more than 7
// instances, so anything far beyond is a typo, not a request.
const maxParsedCount = 1000

// ParseLayout reads the compact form "3g.40gb=2,1g.10gb=1". A profile without
// "=N" counts once; "+me" may be written ".me"; whitespace and case are
// ignored. The empty string is the empty layout (MIG on, no instances).
// Profiles are not checked against a model here; see ValidateLayout.
func ParseLayout(s string) (Layout, error) {
	l := Layout{}
	if strings.TrimSpace(s) == "" {
		return l, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, count, hasCount := strings.Cut(part, "=")
		name = normalizeProfileName(name)
		if _, _, _, ok := parseProfileName(name); !ok {
			return nil, fmt.Errorf("layout %q: %q is not a MIG profile name like 1g.10gb or 1g.10gb+me", s, strings.TrimSpace(name))
		}
		n := 1
		if hasCount {
			var err error
			n, err = strconv.Atoi(strings.TrimSpace(count))
			if err != nil || n < 0 || n > maxParsedCount {
				return nil, fmt.Errorf("layout %q: count %q for %s must be a whole number from 0 to %d", s, strings.TrimSpace(count), name, maxParsedCount)
			}
		}
		if _, dup := l[name]; dup {
			return nil, fmt.Errorf("layout %q: %s appears twice", s, name)
		}
		l[name] = n
	}
	return l.normalized(), nil
}

// String is the canonical compact form, largest profiles first:
// "3g.40gb=2,1g.10gb=1". ParseLayout(l.String()) equals l.
func (l Layout) String() string {
	parts := make([]string, 0, len(l))
	for _, p := range l.profiles() {
		parts = append(parts, p+"="+strconv.Itoa(l[p]))
	}
	return strings.Join(parts, ",")
}

// Summary is the human form used in messages: "3g.40gb + 1g.10gb x2".
func (l Layout) Summary() string {
	parts := make([]string, 0, len(l))
	for _, p := range l.profiles() {
		if l[p] == 1 {
			parts = append(parts, p)
		} else {
			parts = append(parts, fmt.Sprintf("%s x%d", p, l[p]))
		}
	}
	if len(parts) == 0 {
		return "no MIG instances"
	}
	return strings.Join(parts, " + ")
}

// Instances is the number of MIG instances per GPU.
func (l Layout) Instances() int {
	n := 0
	for _, c := range l {
		if c > 0 {
			n += c
		}
	}
	return n
}

// Uniform returns the single profile of a layout that uses only one.
func (l Layout) Uniform() (profile string, ok bool) {
	ps := l.profiles()
	if len(ps) != 1 {
		return "", false
	}
	return ps[0], true
}

// Equal reports whether two layouts have the same instances.
func (l Layout) Equal(o Layout) bool {
	a, b := l.normalized(), o.normalized()
	if len(a) != len(b) {
		return false
	}
	for p, n := range a {
		if b[p] != n {
			return false
		}
	}
	return true
}

// contains reports whether o is a sub-layout of l (every count <= l's).
func (l Layout) contains(o Layout) bool {
	for p, n := range o {
		if n > l[p] {
			return false
		}
	}
	return true
}

func (l Layout) normalized() Layout {
	out := Layout{}
	for p, n := range l {
		if n > 0 {
			out[p] = n
		}
	}
	return out
}

// profiles lists the profiles in use in canonical order: more compute slices
// first, then more memory, then by name (so "+me" follows its plain twin).
func (l Layout) profiles() []string {
	ps := make([]string, 0, len(l))
	for p, n := range l {
		if n > 0 {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return profileLess(ps[i], ps[j]) })
	return ps
}

func profileLess(a, b string) bool {
	ga, ma, _, _ := parseProfileName(a)
	gb, mb, _, _ := parseProfileName(b)
	if ga != gb {
		return ga > gb
	}
	if ma != mb {
		return ma > mb
	}
	return a < b
}
