package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/listfile"
)

// allowedSkip is one line of the allow-list: tests of a package, by a regular expression on
// their whole name, that may skip, and why.
type allowedSkip struct {
	pkg    string // the import path's suffix after the module (internal/service/kueue), or *
	test   *regexp.Regexp
	reason string
}

// readAllowedSkips reads an allow-list: one "<package> <test regexp> <reason>" a line, # comments.
// A line without a reason is refused: the list says why each skip is expected.
func readAllowedSkips(path string) ([]allowedSkip, error) {
	entries, err := listfile.Read(path, "package", "test regexp", "reason")
	if err != nil {
		return nil, err
	}
	var list []allowedSkip
	for _, e := range entries {
		re, err := regexp.Compile("^(?:" + e.Fields[1] + ")$")
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, e.Line, err)
		}
		list = append(list, allowedSkip{pkg: e.Fields[0], test: re, reason: e.Fields[2]})
	}
	return list, nil
}

// allowed reports whether the list allows the skip of r.
func allowed(list []allowedSkip, r result) bool {
	for _, a := range list {
		if (a.pkg == "*" || strings.HasSuffix(r.key.pkg, "/"+a.pkg) || r.key.pkg == a.pkg) && a.test.MatchString(r.key.test) {
			return true
		}
	}
	return false
}
