package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// testKey names a test (or, with an empty Test, a package's own output) within a package.
type testKey struct{ pkg, test string }

// result is how a test or package ended.
type result struct {
	key     testKey
	action  string // pass, fail or skip
	elapsed time.Duration
	started time.Time
}

// topLevel reports whether the test is not a subtest.
func (r result) topLevel() bool { return r.key.test != "" && !strings.Contains(r.key.test, "/") }

// run is what one `go test -json` stream showed.
type run struct {
	label string
	// tests are the tests' and subtests' results in the order they ended.
	tests []result
	// packages are the packages' results (key.test empty): Elapsed is the test binary's wall time.
	packages []result
	// starts is when each package's test binary started.
	starts map[string]time.Time
	// output keeps each test's and package's last lines, for the report of a failure.
	output map[testKey]*tail
	// running are the tests that started and have not ended: when their package fails, they are
	// what a timeout or a panic stopped.
	running map[testKey]bool
	// other holds lines that were not events (build errors, the go command's own messages).
	other *tail
	// unexpectedSkips counts the skips the allow-list did not allow (report sets it).
	unexpectedSkips int
}

func newRun(label string) *run {
	return &run{label: label, starts: map[string]time.Time{}, output: map[testKey]*tail{}, running: map[testKey]bool{}, other: newTail(200)}
}

// readEvents feeds every line of r to the run, calling onResult for each test or package that
// ends, and copies the lines to raw when it is not nil.
func (rn *run) readEvents(r io.Reader, raw io.Writer, onResult func(result)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if raw != nil {
			if _, err := raw.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		rn.addLine(line, onResult)
	}
	return sc.Err()
}

// addLine records one line of the stream: an event, or a line that is not one (build errors, the
// go command's own messages).
func (rn *run) addLine(line []byte, onResult func(result)) {
	var e event
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
		rn.other.add(string(line))
		if onResult != nil && len(line) > 0 {
			onResult(result{action: "other", key: testKey{test: string(line)}})
		}
		return
	}
	if r, ok := rn.add(e); ok && onResult != nil {
		onResult(r)
	}
}

// add records one event and returns the result it ends, if any.
func (rn *run) add(e event) (result, bool) {
	key := testKey{e.Package, e.Test}
	switch e.Action {
	case "start":
		rn.starts[e.Package] = e.Time
	case "run":
		rn.running[key] = true
	case "output", "build-output":
		t := rn.output[key]
		if t == nil {
			t = newTail(200)
			rn.output[key] = t
		}
		t.add(strings.TrimSuffix(e.Output, "\n"))
	case "pass", "fail", "skip":
		delete(rn.running, key)
		r := result{key: key, action: e.Action, elapsed: time.Duration(e.Elapsed * float64(time.Second)), started: rn.starts[e.Package]}
		if e.Test == "" {
			rn.packages = append(rn.packages, r)
		} else {
			rn.tests = append(rn.tests, r)
		}
		return r, true
	}
	return result{}, false
}

// tail keeps the last n lines added.
type tail struct {
	lines []string
	next  int
	full  bool
}

func newTail(n int) *tail { return &tail{lines: make([]string, n)} }

func (t *tail) add(line string) {
	t.lines[t.next] = line
	t.next = (t.next + 1) % len(t.lines)
	t.full = t.full || t.next == 0
}

func (t *tail) all() []string {
	if !t.full {
		return t.lines[:t.next]
	}
	return append(append([]string{}, t.lines[t.next:]...), t.lines[:t.next]...)
}
