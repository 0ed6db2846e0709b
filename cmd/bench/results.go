package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
)

// sample is what one command measured.
type sample struct {
	wall  float64 // seconds
	cpu   float64 // CPU seconds of the plugin processes
	rss   int64   // peak RSS of any one plugin process, bytes
	procs int     // plugin processes seen
	reqs  requests
	note  string
}

type key struct{ workload, variant, step string }

// results keeps the samples of each step in the order the steps first ran.
type results struct {
	order []key
	m     map[key][]sample
}

func (r *results) add(w, v, step string, s sample) {
	if r.m == nil {
		r.m = map[key][]sample{}
	}
	k := key{w, v, step}
	if _, ok := r.m[k]; !ok {
		r.order = append(r.order, k)
	}
	r.m[k] = append(r.m[k], s)
}

// stat is the median of a figure over runs, with its range.
type stat struct {
	med, lo, hi float64
	n           int
}

func statOf(xs []float64) stat {
	if len(xs) == 0 {
		return stat{}
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return stat{med: med, lo: s[0], hi: s[len(s)-1], n: len(s)}
}

func (s stat) format(unit string, digits int) string {
	if s.n == 0 {
		return "-"
	}
	f := func(x float64) string { return fmt.Sprintf("%.*f", digits, x) }
	if s.n == 1 || f(s.lo) == f(s.hi) {
		return f(s.med) + unit
	}
	return fmt.Sprintf("%s%s (%s-%s)", f(s.med), unit, f(s.lo), f(s.hi))
}

// of is the stat of one figure of step k.
func (r *results) of(k key, fig func(sample) float64) stat {
	var xs []float64
	for _, s := range r.m[k] {
		xs = append(xs, fig(s))
	}
	return statOf(xs)
}

func wall(s sample) float64 { return s.wall }
func cpu(s sample) float64  { return s.cpu }
func rssMB(s sample) float64 {
	return float64(s.rss) / (1 << 20)
}

// medianRequests is the median count of each kind of request over the samples.
func medianRequests(ss []sample) requests {
	kinds := map[string]bool{}
	for _, s := range ss {
		for k := range s.reqs {
			kinds[k] = true
		}
	}
	out := requests{}
	for k := range kinds {
		var xs []float64
		for _, s := range ss {
			xs = append(xs, s.reqs[k])
		}
		if m := statOf(xs).med; m > 0 {
			out[k] = m
		}
	}
	return out
}

// table prints one Markdown table: each figure is the median over runs, with its range.
func (r *results) table(out io.Writer) {
	fmt.Fprintln(out, "| workload | variant | step | runs | time | plugin CPU | plugin peak RSS | API requests (median; rf = resourceflavors, cq = clusterqueues) |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|")
	for _, k := range r.order {
		ss := r.m[k]
		cpuCol, rssCol := "-", "-"
		if ss[0].procs > 0 {
			cpuCol = r.of(k, cpu).format(" s", 1)
			rssCol = r.of(k, rssMB).format(" MB", 0)
		}
		reqs := medianRequests(ss).String()
		var notes []string
		for _, s := range ss {
			if s.note != "" && !slices.Contains(notes, s.note) {
				notes = append(notes, s.note)
			}
		}
		if len(notes) > 0 {
			reqs += " **" + strings.Join(notes, ", ") + "**"
		}
		fmt.Fprintf(out, "| %s | %s | %s | %d | %s | %s | %s | %s |\n", k.workload, k.variant, k.step, len(ss),
			r.of(k, wall).format(" s", 2), cpuCol, rssCol, reqs)
	}
}

// targets checks the targets of issue 15 on what was measured, and prints PASS or MISS for each.
func (r *results) targets(out io.Writer) {
	fmt.Fprintln(out, "Targets (issue 15):")
	check := func(ok bool, format string, args ...any) {
		verdict := "MISS"
		if ok {
			verdict = "PASS"
		}
		fmt.Fprintf(out, "- %s %s\n", verdict, fmt.Sprintf(format, args...))
	}
	has := func(k key) bool { return len(r.m[k]) > 0 }
	objects := map[string]int{"W100": 100, "W1000": 1000}
	for _, w := range []string{"W100", "W1000"} {
		plan, same := key{w, mlplatform.name, stepPlan}, key{w, mlplatform.name, stepApplySame}
		if has(plan) {
			var gets, writes float64
			for _, s := range r.m[plan] {
				gets, writes = max(gets, s.reqs.verb("GET")), max(writes, s.reqs.writes())
			}
			check(gets <= float64(objects[w]) && writes == 0,
				"%s plan of unchanged objects: at most one GET per object and no write (worst run: %g GETs for %d objects, %g writes)",
				w, gets, objects[w], writes)
		}
		if has(same) {
			var writes float64
			for _, s := range r.m[same] {
				writes = max(writes, s.reqs.writes())
			}
			check(writes == 0, "%s apply of unchanged objects: no write (worst run: %g)", w, writes)
		}
	}
	med := func(w, v, step string) float64 { return r.of(key{w, v, step}, wall).med }
	for _, t := range []struct{ step, floorStep, kubectlStep string }{
		{stepPlan, stepPlan, stepKubectlGet},
		{stepApplyNew, stepApplyNew, stepKubectlSSA},
	} {
		k := key{"W100", mlplatform.name, t.step}
		if !has(k) || !has(key{"W100", terraformData.name, t.floorStep}) || !has(key{"W100", kubectlFloor, t.kubectlStep}) {
			continue
		}
		floor := med("W100", terraformData.name, t.floorStep) + med("W100", kubectlFloor, t.kubectlStep)
		got := med("W100", mlplatform.name, t.step)
		check(got <= 2*floor, "W100 %s within 2x of the floor (terraform_data %s + %s): %.2f s against %.2f s = %.2fx",
			t.step, t.floorStep, t.kubectlStep, got, floor, got/floor)
	}
	for _, step := range cycleSteps {
		a, b := key{"W100", mlplatform.name, step}, key{"W1000", mlplatform.name, step}
		if !has(a) || !has(b) {
			continue
		}
		x, y := med("W100", mlplatform.name, step), med("W1000", mlplatform.name, step)
		check(y <= 11*x, "W1000 %s at most 11x W100: %.2f s against %.2f s = %.1fx", step, y, x, y/x)
		// The provider's own share, apart from the CLI's (whose state writes grow faster than
		// linearly with the object count, terraform_data's too).
		cx, cy := r.of(a, cpu).med, r.of(b, cpu).med
		if cx > 0 && cy > 0 {
			check(cy <= 11*cx, "W1000 %s: provider CPU at most 11x W100: %.1f s against %.1f s = %.1fx", step, cy, cx, cy/cx)
		}
		// And the wall time against the CLI's own growth, with the same objects and no API.
		if fa, fb := (key{"W100", terraformData.name, step}), (key{"W1000", terraformData.name, step}); has(fa) && has(fb) {
			fx, fy := r.of(fa, wall).med, r.of(fb, wall).med
			check(y/x <= fy/fx, "W1000 %s grows no faster than Terraform's floor (terraform_data): %.1fx against %.1fx",
				step, y/x, fy/fx)
		}
	}
	peak := func(w string) (float64, bool) {
		// The peak over the cycle, per run; then the median over runs.
		runs := map[int]float64{}
		found := false
		for _, k := range r.order {
			if k.workload != w || k.variant != mlplatform.name {
				continue
			}
			for i, s := range r.m[k] {
				runs[i] = max(runs[i], rssMB(s))
				found = true
			}
		}
		return statOf(slices.Collect(maps.Values(runs))).med, found
	}
	p100, ok100 := peak("W100")
	p1000, ok1000 := peak("W1000")
	if ok1000 {
		check(p1000 <= 100, "W1000 provider peak RSS at most 100 MB: %.0f MB", p1000)
	}
	if ok100 && ok1000 {
		check(p1000 <= 1.2*p100, "provider peak RSS flat from W100 to W1000 (within 20%%): %.0f MB to %.0f MB = %+.0f%%",
			p100, p1000, 100*(p1000/p100-1))
	}
}
