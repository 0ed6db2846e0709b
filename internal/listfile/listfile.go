// Package listfile reads the project's hand-kept lists (the compatibility suite, the allowed
// skips): a line an entry, its fields separated by white space, the last field running to the end
// of the line; blank lines and lines starting with # are left out.
package listfile

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Entry is one line of a list: its number in the file and its fields.
type Entry struct {
	Line   int
	Fields []string
}

// Read returns the entries of the list at path. Each must have len(form) fields, the last of
// which takes the rest of the line; a shorter line is an error that shows form.
func Read(path string, form ...string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []Entry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < len(form) {
			return nil, fmt.Errorf("%s:%d: want <%s>", path, n, strings.Join(form, "> <"))
		}
		last := len(form) - 1
		fields = append(fields[:last:last], strings.Join(fields[last:], " "))
		entries = append(entries, Entry{Line: n, Fields: fields})
	}
	return entries, sc.Err()
}
