package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []allowedSkip
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: want <package> <test regexp> <reason>", path, n)
		}
		re, err := regexp.Compile("^(?:" + fields[1] + ")$")
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		list = append(list, allowedSkip{pkg: fields[0], test: re, reason: strings.Join(fields[2:], " ")})
	}
	return list, sc.Err()
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
