package main

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
)

// palette colours series in order: flavors and teams.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

const width, height, pad = 760.0, 260.0, 40.0

// chart is one SVG line chart: a series per name over the timeline's steps.
type chart struct {
	Title  string
	YLabel string
	Series []series
	Max    float64
	Ticks  []tick
	XTicks []tick
}

type series struct {
	Name, Colour string
	Points       string
}

type tick struct {
	Pos   float64
	Label string
}

type bar struct {
	X, Y, W, H float64
	Colour     string
	Title      string
}

type view struct {
	Sims []simView
}

type simView struct {
	Name    string
	Charts  []chart
	Waits   []bar
	WaitMax float64
	Labels  []tick
	Teams   []teamRow
	Caveats []string
}

type teamRow struct {
	Name string
	teamResult
	Preempted int
}

func page(w io.Writer, sims []simulation) error {
	v := view{}
	for _, s := range sims {
		v.Sims = append(v.Sims, build(s))
	}
	return tmpl.Execute(w, v)
}

func build(s simulation) simView {
	sv := simView{Name: s.Name, Caveats: s.Caveats}
	flavors, teams := map[string]bool{}, slices.Sorted(keysOf(s.Teams))
	for _, st := range s.Timeline {
		for f := range st.GPUsInUse {
			flavors[f] = true
		}
	}
	sv.Charts = append(sv.Charts,
		lines("GPUs in use per flavor", "GPUs", s.Timeline, slices.Sorted(keysOf(flavors)), func(st step, n string) float64 { return st.GPUsInUse[n] }),
		lines("Jobs waiting per team", "jobs", s.Timeline, teams, func(st step, n string) float64 { return float64(st.Pending[n]) }),
	)
	for _, t := range teams {
		r := s.Teams[t]
		sv.WaitMax = math.Max(sv.WaitMax, r.WaitMaxMinutes)
		n := 0
		for _, c := range r.Preemptions {
			n += c
		}
		sv.Teams = append(sv.Teams, teamRow{Name: t, teamResult: r, Preempted: n})
	}
	sv.WaitMax = niceMax(sv.WaitMax)
	group := (width - 2*pad) / float64(max(1, len(teams)))
	for i, t := range teams {
		r := s.Teams[t]
		x0 := pad + float64(i)*group + group*0.15
		sv.Labels = append(sv.Labels, tick{Pos: x0 + group*0.35, Label: t})
		for j, w := range []struct {
			v    float64
			what string
		}{{r.WaitP50Minutes, "p50"}, {r.WaitP95Minutes, "p95"}, {r.WaitMaxMinutes, "max"}} {
			h := (height - 2*pad) * w.v / sv.WaitMax
			sv.Waits = append(sv.Waits, bar{X: x0 + float64(j)*group*0.23, Y: height - pad - h, W: group * 0.2, H: h,
				Colour: palette[j], Title: fmt.Sprintf("%s %s: %.0f min", t, w.what, w.v)})
		}
	}
	return sv
}

func lines(title, ylabel string, steps []step, names []string, value func(step, string) float64) chart {
	c := chart{Title: title, YLabel: ylabel}
	for _, st := range steps {
		for _, n := range names {
			c.Max = math.Max(c.Max, value(st, n))
		}
	}
	c.Max = niceMax(c.Max)
	last := 1
	if len(steps) > 0 {
		last = max(1, steps[len(steps)-1].StartMinutes)
	}
	x := func(m int) float64 { return pad + (width-2*pad)*float64(m)/float64(last) }
	y := func(v float64) float64 { return height - pad - (height-2*pad)*v/c.Max }
	for i, n := range names {
		var pts []string
		for _, st := range steps {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(st.StartMinutes), y(value(st, n))))
		}
		c.Series = append(c.Series, series{Name: n, Colour: palette[i%len(palette)], Points: strings.Join(pts, " ")})
	}
	for i := 0; i <= 4; i++ {
		v := c.Max * float64(i) / 4
		c.Ticks = append(c.Ticks, tick{Pos: y(v), Label: fmt.Sprintf("%g", v)})
	}
	for h := 0; h <= last/60; h += max(1, last/60/8) {
		c.XTicks = append(c.XTicks, tick{Pos: x(h * 60), Label: fmt.Sprintf("%dh", h)})
	}
	return c
}

// niceMax rounds an axis's top up to 1, 2 or 5 times a power of ten (at least 1).
func niceMax(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func keysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(keysOf(m)) }

// name is where the simulation was found: a resource's address, or its path in the document (an
// output's name).
func name(at []string) string { return strings.Join(at, ".") }

// dedupe keeps one of simulations whose results are the same.
func dedupe(in []simulation) []simulation {
	seen := map[string]bool{}
	var out []simulation
	for _, s := range in {
		b, _ := json.Marshal(struct {
			T map[string]teamResult
			L []step
		}{s.Teams, s.Timeline})
		if !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, s)
		}
	}
	return out
}

var tmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Capacity simulation</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222 }
svg { background: #fff; border: 1px solid #ddd; margin-bottom: 1em }
table { border-collapse: collapse; margin-bottom: 1em } td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: right }
.axis { stroke: #888 } .grid { stroke: #eee } text { font-size: 11px }
</style></head><body>
<h1>Capacity simulation</h1>
{{range .Sims}}<section>
<h2>{{.Name}}</h2>
{{range .Charts}}<h3>{{.Title}}</h3>
<svg class="chart" width="760" height="260" role="img" aria-label="{{.Title}}">
{{range .Ticks}}<line class="grid" x1="40" x2="720" y1="{{.Pos}}" y2="{{.Pos}}"/><text x="4" y="{{.Pos}}">{{.Label}}</text>{{end}}
{{range .XTicks}}<text x="{{.Pos}}" y="252">{{.Label}}</text>{{end}}
<line class="axis" x1="40" x2="720" y1="220" y2="220"/><line class="axis" x1="40" x2="40" y1="40" y2="220"/>
{{range .Series}}<polyline class="series" fill="none" stroke="{{.Colour}}" stroke-width="2" points="{{.Points}}"><title>{{.Name}}</title></polyline>{{end}}
</svg>
<p>{{range .Series}}<span style="color:{{.Colour}}">&#9632; {{.Name}}</span> {{end}}</p>
{{end}}
<h3>Waits per team (minutes: p50, p95, max; up to {{.WaitMax}})</h3>
<svg class="chart" width="760" height="260" role="img" aria-label="waits">
<line class="axis" x1="40" x2="720" y1="220" y2="220"/>
{{range .Waits}}<rect class="bar" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="{{.Colour}}"><title>{{.Title}}</title></rect>{{end}}
{{range .Labels}}<text x="{{.Pos}}" y="240">{{.Label}}</text>{{end}}
</svg>
<p><span style="color:#1f77b4">&#9632; p50</span> <span style="color:#ff7f0e">&#9632; p95</span> <span style="color:#2ca02c">&#9632; max</span></p>
<table><tr><th>team</th><th>submitted</th><th>finished</th><th>waiting</th><th>wait p50</th><th>p95</th><th>max</th><th>preemptions</th><th>GPU-hours</th><th>cost (USD)</th></tr>
{{range .Teams}}<tr><td>{{.Name}}</td><td>{{.Submitted}}</td><td>{{.Finished}}</td><td>{{.Waiting}}</td><td>{{.WaitP50Minutes}}</td><td>{{.WaitP95Minutes}}</td><td>{{.WaitMaxMinutes}}</td><td>{{.Preempted}}</td><td>{{.GPUHours}}</td><td>{{.Cost}}</td></tr>
{{end}}</table>
<ul>{{range .Caveats}}<li>{{.}}</li>{{end}}</ul>
</section>{{end}}
</body></html>
`))
