// Command testreport reads `go test -json` and reports what ran, for humans and for CI.
//
//	go test -json ... 2>&1 | testreport -label terraform -log .cache/test-terraform.json -skips internal/acctest/allowed_skips.txt
//
// prints a line per top-level test and package as they end, then each failing test's output,
// the packages' wall times, the slowest tests and the closing "<label>: N passed, ..." line. It
// exits non-zero when a test or package failed, when a skip is not on the allow-list (with
// -skips), or when the stream held no package result at all.
//
//	testreport times .cache/test-*.json
//
// prints the wall time of each test package and the slowest tests of each log, side by side.
//
//	testreport run -spec runs.txt -p 4 -skips internal/acctest/allowed_skips.txt
//
// runs several runs of tests (e.g. the whole suite on one CLI, a compatibility suite on another)
// as go test would, but with each package's test binary built once for all of them and every
// run's binaries in one pool, the slowest packages first; it reports as above, per run, and keeps
// each run's stream in .cache/test-<label>.json.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "times":
			os.Exit(times(os.Stdout, os.Args[2:]))
		case "run":
			os.Exit(runTests(os.Args[2:], os.Stdout))
		}
	}
	label := flag.String("label", "", "the run's name in the closing lines (e.g. the CLI)")
	logPath := flag.String("log", "", "where to keep the whole `go test -json` stream")
	skipsPath := flag.String("skips", "", "allow-list of tests that may skip; any other skip fails the run")
	slowest := flag.Int("slowest", 10, "how many of the slowest tests to list")
	flag.Parse()
	os.Exit(stream(os.Stdin, os.Stdout, *label, *logPath, *skipsPath, *slowest))
}

func stream(in io.Reader, out io.Writer, label, logPath, skipsPath string, slowest int) int {
	skips, err := loadSkips(skipsPath)
	if err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return 2
	}
	var raw io.Writer
	if logPath != "" {
		f, err := createLog(logPath)
		if err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
		defer f.Close()
		raw = f
	}
	start := time.Now()
	rn := newRun(label)
	if err := rn.readEvents(in, raw, func(r result) { printProgress(out, "", r) }); err != nil {
		fmt.Fprintln(out, "testreport: reading go test's output:", err)
		return 2
	}
	return report(out, []*run{rn}, skips, slowest, time.Since(start))
}

// loadSkips reads the allow-list at path; an empty path checks no skip (nil).
func loadSkips(path string) (*skipList, error) {
	if path == "" {
		return nil, nil
	}
	list, err := readAllowedSkips(path)
	if err != nil {
		return nil, err
	}
	return &skipList{path: path, list: list}, nil
}

// skipList is an allow-list and the file it came from.
type skipList struct {
	path string
	list []allowedSkip
}

func createLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}

// report prints, for the runs, each failure's output and each skip the list does not allow, the
// packages' wall times side by side, each run's slowest tests and its closing lines; it returns
// the exit status: 1 when a run failed, skipped what the list does not allow, or ran nothing.
func report(out io.Writer, runs []*run, skips *skipList, slowest int, took time.Duration) int {
	status := 0
	for _, rn := range runs {
		if rn.printFailures(out) {
			status = 1
		}
		if skips == nil {
			continue
		}
		var unexpected []result
		for _, r := range rn.tests {
			if r.action == "skip" && !allowed(skips.list, r) {
				unexpected = append(unexpected, r)
			}
		}
		rn.unexpectedSkips = len(unexpected)
		if len(unexpected) > 0 {
			status = 1
			fmt.Fprintf(out, "--- %sskips not on the allow-list (%s): each one hides a test that did not run ---\n", prefix(rn.label), skips.path)
			for _, r := range unexpected {
				fmt.Fprintf(out, "%s %s: %s\n", r.key.pkg, r.key.test, strings.Join(skipReason(rn, r.key), " "))
			}
		}
	}
	fmt.Fprintln(out)
	printPackageTimes(out, runs)
	for _, rn := range runs {
		printSlowest(out, rn, slowest)
	}
	fmt.Fprintln(out)
	for _, rn := range runs {
		p, f, s := rn.counts()
		fmt.Fprintf(out, "%s%d passed, %d failed, %d skipped (%d not on the allow-list)\n", prefix(rn.label), p, f, s, rn.unexpectedSkips)
		if f > 0 {
			status = 1
		}
		if len(rn.packages) == 0 {
			fmt.Fprintf(out, "%sno package ran\n", prefix(rn.label))
			status = 1
		}
	}
	fmt.Fprintf(out, "tests took %s\n", took.Round(time.Second))
	return status
}

// prefix is "<label>: ", or nothing for a run without a label.
func prefix(label string) string {
	if label == "" {
		return ""
	}
	return label + ": "
}

// printProgress prints a line for a package or a top-level test that ended, and for any failure,
// each after tag (the run's label in brackets, when several runs share the output).
func printProgress(out io.Writer, tag string, r result) {
	switch {
	case r.action == "other":
		fmt.Fprintln(out, tag+r.key.test)
	case r.key.test == "":
		status := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "ok  "}[r.action]
		fmt.Fprintf(out, "%s%s %s %.1fs\n", tag, status, r.key.pkg, r.elapsed.Seconds())
	case r.topLevel() || r.action == "fail":
		fmt.Fprintf(out, "%s--- %s: %s (%.2fs)\n", tag, strings.ToUpper(r.action), r.key.test, r.elapsed.Seconds())
	}
}

// printFailures prints each failing test's last lines, and the output of failing packages
// (TestMain, a panic) and of lines that were not events; it reports whether a package failed.
func (rn *run) printFailures(out io.Writer) bool {
	failed := false
	header := func() {
		if !failed {
			fmt.Fprintf(out, "--- %soutput of failures ---\n", prefix(rn.label))
		}
		failed = true
	}
	for _, r := range rn.tests {
		if r.action == "fail" {
			header()
			fmt.Fprintf(out, "=== output of %s (%s)\n", r.key.test, r.key.pkg)
			printLines(out, rn.output[r.key])
		}
	}
	for _, r := range rn.packages {
		if r.action != "fail" {
			continue
		}
		header()
		for _, k := range rn.unfinished(r.key.pkg) {
			fmt.Fprintf(out, "=== output of %s (%s), which never ended\n", k.test, k.pkg)
			printLines(out, rn.output[k])
		}
		fmt.Fprintf(out, "=== output of package %s\n", r.key.pkg)
		printLines(out, rn.output[r.key])
	}
	if failed && len(rn.other.all()) > 0 {
		fmt.Fprintf(out, "=== %sother output of go test\n", prefix(rn.label))
		printLines(out, rn.other)
	}
	return failed
}

// unfinished are the package's tests that started and never ended, in name order.
func (rn *run) unfinished(pkg string) []testKey {
	var keys []testKey
	for k := range rn.running {
		if k.pkg == pkg {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b testKey) int { return strings.Compare(a.test, b.test) })
	return keys
}

func printLines(out io.Writer, t *tail) {
	if t == nil {
		return
	}
	for _, l := range t.all() {
		fmt.Fprintln(out, l)
	}
}

func skipReason(rn *run, key testKey) []string {
	t := rn.output[key]
	if t == nil {
		return nil
	}
	var reason []string
	for _, l := range t.all() {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- SKIP") {
			reason = append(reason, l)
		}
	}
	return reason
}

// counts are the passed, failed and skipped tests and subtests.
func (rn *run) counts() (passed, failed, skipped int) {
	for _, r := range rn.tests {
		switch r.action {
		case "pass":
			passed++
		case "fail":
			failed++
		case "skip":
			skipped++
		}
	}
	return
}
