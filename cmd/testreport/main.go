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
	if len(os.Args) > 1 && os.Args[1] == "times" {
		os.Exit(times(os.Stdout, os.Args[2:]))
	}
	label := flag.String("label", "", "the run's name in the closing lines (e.g. the CLI)")
	logPath := flag.String("log", "", "where to keep the whole `go test -json` stream")
	skipsPath := flag.String("skips", "", "allow-list of tests that may skip; any other skip fails the run")
	slowest := flag.Int("slowest", 10, "how many of the slowest tests to list")
	flag.Parse()
	os.Exit(stream(os.Stdin, os.Stdout, *label, *logPath, *skipsPath, *slowest))
}

func stream(in io.Reader, out io.Writer, label, logPath, skipsPath string, slowest int) int {
	var skips []allowedSkip
	if skipsPath != "" {
		var err error
		if skips, err = readAllowedSkips(skipsPath); err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
	}
	var raw io.Writer
	if logPath != "" {
		if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
		f, err := os.Create(logPath)
		if err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
		defer f.Close()
		raw = f
	}
	start := time.Now()
	rn := newRun(label)
	err := rn.readEvents(in, raw, func(r result) { printProgress(out, r) })
	if err != nil {
		fmt.Fprintln(out, "testreport: reading go test's output:", err)
		return 2
	}
	failed := rn.printFailures(out)
	var unexpected []result
	for _, r := range rn.tests {
		if r.action == "skip" && skipsPath != "" && !allowed(skips, r) {
			unexpected = append(unexpected, r)
		}
	}
	if len(unexpected) > 0 {
		fmt.Fprintf(out, "--- skips not on the allow-list (%s): each one hides a test that did not run ---\n", skipsPath)
		for _, r := range unexpected {
			fmt.Fprintf(out, "%s %s: %s\n", r.key.pkg, r.key.test, strings.Join(skipReason(rn, r.key), " "))
		}
	}
	fmt.Fprintln(out)
	printPackageTimes(out, []*run{rn})
	printSlowest(out, rn, slowest)
	prefix := ""
	if label != "" {
		prefix = label + ": "
	}
	p, f, s := rn.counts()
	fmt.Fprintf(out, "%sgo test took %s\n", prefix, time.Since(start).Round(time.Second))
	fmt.Fprintf(out, "%s%d passed, %d failed, %d skipped (%d not on the allow-list)\n", prefix, p, f, s, len(unexpected))
	switch {
	case failed || f > 0:
		return 1
	case len(unexpected) > 0:
		return 1
	case len(rn.packages) == 0:
		fmt.Fprintln(out, "testreport: no package ran")
		return 1
	}
	return 0
}

func printProgress(out io.Writer, r result) {
	switch {
	case r.action == "other":
		fmt.Fprintln(out, r.key.test)
	case r.key.test == "":
		status := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "ok  "}[r.action]
		fmt.Fprintf(out, "%s %s %.1fs\n", status, r.key.pkg, r.elapsed.Seconds())
	case r.topLevel() || r.action == "fail":
		fmt.Fprintf(out, "--- %s: %s (%.2fs)\n", strings.ToUpper(r.action), r.key.test, r.elapsed.Seconds())
	}
}

// printFailures prints each failing test's last lines, and the output of failing packages
// (TestMain, a panic) and of lines that were not events; it reports whether a package failed.
func (rn *run) printFailures(out io.Writer) bool {
	failed := false
	header := func() {
		if !failed {
			fmt.Fprintln(out, "--- output of failures ---")
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
		fmt.Fprintln(out, "=== other output of go test")
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
