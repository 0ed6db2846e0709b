// Command simulation-report writes an HTML page with charts of a capacity simulation: GPUs in use
// per flavor, jobs waiting per team and each team's waits. It reads the JSON of `terraform show
// -json <plan>` or `terraform output -json` (any value that holds a simulation's teams and
// timeline: data.mlplatform_capacity_simulation's or the ml-platform module's output simulation).
//
//	simulation-report -in plan.json -out report.html
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	in := flag.String("in", "-", "the JSON to read (- for stdin)")
	out := flag.String("out", "simulation.html", "the HTML page to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "simulation-report:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	var r io.Reader = os.Stdin
	if in != "-" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	var doc any
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("reading %s: %w", in, err)
	}
	sims := find(doc, nil)
	if len(sims) == 0 {
		return fmt.Errorf("%s holds no simulation (an object with teams and timeline): is it a plan or outputs of a configuration that reads data.mlplatform_capacity_simulation?", in)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := page(f, sims); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// simulation is what the page shows of one simulation.
type simulation struct {
	Name     string
	Teams    map[string]teamResult `json:"teams"`
	Timeline []step                `json:"timeline"`
	Caveats  []string              `json:"caveats"`
}

type teamResult struct {
	Submitted      int            `json:"submitted"`
	Finished       int            `json:"finished"`
	Waiting        int            `json:"waiting"`
	WaitP50Minutes float64        `json:"wait_p50_minutes"`
	WaitP95Minutes float64        `json:"wait_p95_minutes"`
	WaitMaxMinutes float64        `json:"wait_max_minutes"`
	Preemptions    map[string]int `json:"preemptions"`
	GPUHours       float64        `json:"gpu_hours"`
	Cost           float64        `json:"cost"`
}

type step struct {
	StartMinutes int                `json:"start_minutes"`
	GPUsInUse    map[string]float64 `json:"gpus_in_use"`
	Pending      map[string]int     `json:"pending"`
}

// find collects every object with teams and timeline, named by where it was found; a plan holds
// the same data source in several places (planned values, prior state), which are kept once.
func find(v any, at []string) []simulation {
	var out []simulation
	switch x := v.(type) {
	case map[string]any:
		if addr, ok := x["address"].(string); ok { // a plan's resource: name what it holds by its address
			if sims := find(x["values"], []string{addr}); len(sims) > 0 {
				return sims
			}
		}
		if _, ok := x["teams"].(map[string]any); ok {
			if _, ok := x["timeline"].([]any); ok {
				b, _ := json.Marshal(x)
				var s simulation
				if json.Unmarshal(b, &s) == nil {
					s.Name = name(at)
					return []simulation{s}
				}
			}
		}
		keys := sortedKeys(x)
		for _, k := range keys {
			out = append(out, find(x[k], append(at, k))...)
		}
	case []any:
		for i, e := range x {
			out = append(out, find(e, append(at, fmt.Sprint(i)))...)
		}
	}
	return dedupe(out)
}
