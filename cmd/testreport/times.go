package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// times prints the package and slowest-test tables of the `go test -json` logs named by args.
func times(out io.Writer, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testreport times <go test -json log>...")
		return 2
	}
	var runs []*run
	for _, path := range args {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		rn := newRun(labelOf(path))
		err = rn.readEvents(f, nil, nil)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, path+":", err)
			return 1
		}
		runs = append(runs, rn)
	}
	printPackageTimes(out, runs)
	for _, rn := range runs {
		printSlowest(out, rn, 15)
	}
	return 0
}

// labelOf names a log by its file: .cache/test-terraform.json is "terraform".
func labelOf(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return strings.TrimPrefix(name, "test-")
}

// printPackageTimes prints each package's test binary wall time per run, the slowest first, and
// each run's span from the first binary's start to the last one's end (packages run side by
// side, so the span is less than the sum).
func printPackageTimes(out io.Writer, runs []*run) {
	elapsed := map[string]map[int]result{}
	var pkgs []string
	for i, rn := range runs {
		for _, r := range rn.packages {
			if elapsed[r.key.pkg] == nil {
				elapsed[r.key.pkg] = map[int]result{}
				pkgs = append(pkgs, r.key.pkg)
			}
			elapsed[r.key.pkg][i] = r
		}
	}
	longest := func(p string) time.Duration {
		var d time.Duration
		for _, r := range elapsed[p] {
			d = max(d, r.elapsed)
		}
		return d
	}
	slices.SortStableFunc(pkgs, func(a, b string) int { return int(longest(b) - longest(a)) })
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "package\t")
	for _, rn := range runs {
		fmt.Fprintf(w, "%s (s)\t", orDash(rn.label))
	}
	fmt.Fprintln(w)
	for _, p := range pkgs {
		fmt.Fprintf(w, "%s\t", shortPackage(p))
		for i := range runs {
			r, ok := elapsed[p][i]
			switch {
			case !ok:
				fmt.Fprint(w, "-\t")
			case r.action == "fail":
				fmt.Fprintf(w, "%.0f FAIL\t", r.elapsed.Seconds())
			default:
				fmt.Fprintf(w, "%.0f\t", r.elapsed.Seconds())
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "sum of packages\t")
	for _, rn := range runs {
		var sum time.Duration
		for _, r := range rn.packages {
			sum += r.elapsed
		}
		fmt.Fprintf(w, "%.0f\t", sum.Seconds())
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "first start to last end\t")
	for _, rn := range runs {
		fmt.Fprintf(w, "%.0f\t", rn.span().Seconds())
	}
	fmt.Fprintln(w)
	_ = w.Flush()
}

// span is the time from the first test binary's start to the last one's end.
func (rn *run) span() time.Duration {
	var first, last time.Time
	for _, r := range rn.packages {
		if r.started.IsZero() {
			continue
		}
		end := r.started.Add(r.elapsed)
		if first.IsZero() || r.started.Before(first) {
			first = r.started
		}
		if end.After(last) {
			last = end
		}
	}
	return last.Sub(first)
}

// printSlowest lists the n slowest top-level tests of a run.
func printSlowest(out io.Writer, rn *run, n int) {
	var top []result
	for _, r := range rn.tests {
		if r.topLevel() {
			top = append(top, r)
		}
	}
	if len(top) == 0 {
		return
	}
	slices.SortStableFunc(top, func(a, b result) int { return int(b.elapsed - a.elapsed) })
	fmt.Fprintf(out, "\nslowest tests (%s):\n", orDash(rn.label))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, r := range top[:min(n, len(top))] {
		fmt.Fprintf(w, "  %.0fs\t%s\t%s\t%s\n", r.elapsed.Seconds(), r.key.test, shortPackage(r.key.pkg), r.action)
	}
	_ = w.Flush()
}

func shortPackage(p string) string {
	const module = "github.com/mlplatform/terraform-provider-mlplatform"
	if p == module {
		return "."
	}
	return strings.TrimPrefix(p, module+"/")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
