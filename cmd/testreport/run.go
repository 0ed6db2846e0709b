package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// A runSpec is one run of `testreport run`: a label, the environment it adds, the flags its test
// binaries get (-test.run=..., -test.timeout=...) and the packages (go list patterns).
type runSpec struct {
	label    string
	env      []string
	flags    []string
	patterns []string
}

// parseSpec reads a run specification: one run a line, four fields separated by tabs (label,
// environment, flags, packages), each field's items by spaces, "-" for none; # comments.
func parseSpec(r io.Reader) ([]runSpec, error) {
	var specs []runSpec
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields (label, environment, flags, packages), got %d", n, len(f))
		}
		items := func(s string) []string {
			if strings.TrimSpace(s) == "-" {
				return nil
			}
			return strings.Fields(s)
		}
		specs = append(specs, runSpec{label: strings.TrimSpace(f[0]), env: items(f[1]), flags: items(f[2]), patterns: items(f[3])})
	}
	return specs, sc.Err()
}

// testPackage is a package with tests, and where its sources are (its test binary runs there).
type testPackage struct{ importPath, dir string }

// job is one package's tests in one run.
type job struct {
	spec *runSpec
	rn   *run
	pkg  testPackage
	// expected is how long the package took in the run's last log, to start the longest first.
	expected time.Duration
}

// runTests builds each package's test binary once (go test -c) and runs the jobs of every run in
// one pool of p slots, the longest expected first, feeding each run's report and log.
func runTests(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	specPath := fs.String("spec", "", "the runs: label<TAB>env<TAB>flags<TAB>packages, one a line")
	p := fs.Int("p", 2, "test binaries running at once, across all runs")
	logDir := fs.String("logs", ".cache", "where each run's stream goes (test-<label>.json)")
	binDir := fs.String("bin", ".cache/testbin", "where test binaries are built")
	skipsPath := fs.String("skips", "", "allow-list of tests that may skip; any other skip fails the run")
	orderPath := fs.String("order", "", "packages, slowest first (one import path a line): they start first")
	slowest := fs.Int("slowest", 10, "how many of the slowest tests to list per run")
	_ = fs.Parse(args)
	f, err := os.Open(*specPath)
	if err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return 2
	}
	specs, err := parseSpec(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(out, "testreport: %s: %v\n", *specPath, err)
		return 2
	}
	skips, err := loadSkips(*skipsPath)
	if err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return 2
	}
	start := time.Now()
	var runs []*run
	var jobs []*job
	for i := range specs {
		s := &specs[i]
		pkgs, err := listTestPackages(s.patterns)
		if err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
		rn := newRun(s.label)
		previous := previousTimes(filepath.Join(*logDir, "test-"+s.label+".json"))
		runs = append(runs, rn)
		for _, pkg := range pkgs {
			jobs = append(jobs, &job{spec: s, rn: rn, pkg: pkg, expected: previous[pkg.importPath]})
		}
	}
	// Longest first: the packages that take longest decide when the pool empties. The order file
	// says which they are on a clean checkout; a run's last log refines it.
	rank := readOrder(*orderPath)
	slices.SortStableFunc(jobs, func(a, b *job) int {
		if ra, rb := rank(a.pkg.importPath), rank(b.pkg.importPath); ra != rb {
			return ra - rb
		}
		return int(b.expected - a.expected)
	})

	logs := map[*run]*lockedWriter{}
	for _, rn := range runs {
		lf, err := createLog(filepath.Join(*logDir, "test-"+rn.label+".json"))
		if err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
		defer lf.Close()
		logs[rn] = &lockedWriter{w: lf}
	}
	b := &binaries{dir: *binDir, built: map[string]*build{}}
	var outMu sync.Mutex
	slots := make(chan struct{}, *p)
	var wg sync.WaitGroup
	for _, j := range jobs {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			j.execute(b, logs[j.rn], func(line []byte) {
				outMu.Lock()
				defer outMu.Unlock()
				j.rn.addLine(line, func(r result) { printProgress(out, "["+j.rn.label+"] ", r) })
			})
		}()
	}
	wg.Wait()
	return report(out, runs, skips, *slowest, time.Since(start))
}

// execute builds the job's test binary (once for every run) and runs it through test2json,
// handing each line of the stream to feed and to the run's log.
func (j *job) execute(b *binaries, log io.Writer, feed func([]byte)) {
	emit := func(line []byte) {
		_, _ = log.Write(append(append([]byte{}, line...), '\n'))
		feed(line)
	}
	bin, buildOutput, err := b.get(j.pkg)
	if err != nil {
		// As go test reports a package that does not build: its output, then the package failed.
		for _, l := range strings.Split(strings.TrimSpace(buildOutput), "\n") {
			emit(eventLine("output", j.pkg.importPath, l+"\n"))
		}
		emit(eventLine("fail", j.pkg.importPath, ""))
		return
	}
	if bin == "" {
		return // no test files
	}
	args := append([]string{"tool", "test2json", "-t", "-p", j.pkg.importPath, bin, "-test.v=test2json", "-test.paniconexit0"}, j.spec.flags...)
	cmd := exec.Command("go", args...)
	cmd.Dir = j.pkg.dir
	cmd.Env = append(os.Environ(), j.spec.env...)
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		cmd.Stderr = cmd.Stdout // test2json's own complaints, as lines that are not events
		err = cmd.Start()
	}
	if err != nil {
		emit(eventLine("output", j.pkg.importPath, "starting the test binary: "+err.Error()+"\n"))
		emit(eventLine("fail", j.pkg.importPath, ""))
		return
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		emit(sc.Bytes())
	}
	_ = cmd.Wait() // the stream ends with the package's pass or fail
}

// eventLine is a test2json event of the package, as go test writes it.
func eventLine(action, pkg, output string) []byte {
	e := fmt.Sprintf(`{"Time":%q,"Action":%q,"Package":%q`, time.Now().Format(time.RFC3339Nano), action, pkg)
	if output != "" {
		quoted, _ := json.Marshal(output)
		e += `,"Output":` + string(quoted)
	}
	return []byte(e + "}")
}

// binaries builds each package's test binary once.
type binaries struct {
	dir   string
	mu    sync.Mutex
	built map[string]*build
}

type build struct {
	once         sync.Once
	path, output string
	err          error
}

// get returns the package's test binary, building it on first use; "" when it has no tests.
func (b *binaries) get(pkg testPackage) (string, string, error) {
	b.mu.Lock()
	bd := b.built[pkg.importPath]
	if bd == nil {
		bd = &build{}
		b.built[pkg.importPath] = bd
	}
	b.mu.Unlock()
	bd.once.Do(func() {
		path, err := filepath.Abs(filepath.Join(b.dir, strings.ReplaceAll(pkg.importPath, "/", "_")+".test"))
		if err != nil {
			bd.err = err
			return
		}
		_ = os.Remove(path)
		cmd := exec.CommandContext(context.Background(), "go", "test", "-c", "-o", path, pkg.importPath)
		outBytes, err := cmd.CombinedOutput()
		bd.output, bd.err = string(outBytes), err
		if err == nil {
			if _, statErr := os.Stat(path); errors.Is(statErr, os.ErrNotExist) {
				return // no test files: go test -c writes nothing
			}
			bd.path = path
		}
	})
	return bd.path, bd.output, bd.err
}

// listTestPackages lists the packages of the patterns that have test files.
func listTestPackages(patterns []string) ([]testPackage, error) {
	args := append([]string{"list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}\t{{.Dir}}{{end}}"}, patterns...)
	outBytes, err := exec.Command("go", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("go list %s: %w\n%s", strings.Join(patterns, " "), err, ee.Stderr)
		}
		return nil, err
	}
	var pkgs []testPackage
	for _, line := range strings.Split(strings.TrimSpace(string(outBytes)), "\n") {
		if path, dir, ok := strings.Cut(line, "\t"); ok {
			pkgs = append(pkgs, testPackage{path, dir})
		}
	}
	return pkgs, nil
}

// previousTimes are the packages' wall times in a run's last log, if there is one.
func previousTimes(path string) map[string]time.Duration {
	times := map[string]time.Duration{}
	f, err := os.Open(path)
	if err != nil {
		return times
	}
	defer f.Close()
	rn := newRun("")
	if rn.readEvents(f, nil, nil) == nil {
		for _, r := range rn.packages {
			times[r.key.pkg] = r.elapsed
		}
	}
	return times
}

// readOrder reads the order file: rank gives a package's line (0 first), len(lines) if absent.
func readOrder(path string) (rank func(string) int) {
	var order []string
	if path != "" {
		if data, err := os.ReadFile(path); err == nil {
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					order = append(order, strings.Fields(l)[0])
				}
			}
		}
	}
	return func(pkg string) int {
		if i := slices.Index(order, pkg); i >= 0 {
			return i
		}
		return len(order)
	}
}

// lockedWriter writes whole lines from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
