package simulate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Run refuses, with an error and never a panic, any input past its bounds: a timeline of more
// steps than MaxSteps (an interval of 1ns was a makeslice panic), and jobs whose numbers would
// overflow the clock or collide.
func TestRun_refusesInputPastItsBounds(t *testing.T) {
	for _, c := range []struct {
		name, want string
		change     func(*Input)
	}{
		{"interval of 1ns", "the timeline would have 86400000000000 steps", func(in *Input) { in.Interval = time.Nanosecond }},
		{"steps one past the bound", "10001 steps", func(in *Input) { in.Interval = in.Horizon / MaxSteps; in.Horizon += in.Interval }},
		{"horizon past the bound", "the horizon must be", func(in *Input) { in.Horizon = MaxHorizon + 1 }},
		{"horizon of ten years", "the horizon must be", func(in *Input) { in.Horizon = 10 * 365 * 24 * time.Hour }},
		{"horizon at the clock's end", "the horizon must be", func(in *Input) { in.Horizon = math.MaxInt64 }},
		{"too many jobs", "50001 jobs", func(in *Input) {
			in.Jobs = nil
			for i := range MaxJobs + 1 {
				in.Jobs = append(in.Jobs, job("a", fmt.Sprintf("j%d", i), 0, time.Hour, 1, ""))
			}
		}},
		{"timeline values past the bound", "the timeline would have 110000 values (10000 steps of 1 flavors and 10 teams)", func(in *Input) {
			in.Interval = time.Minute
			in.Horizon = MaxSteps * time.Minute // steps within their bound, values (11 a step) not
			in.Jobs = nil
			for i := range 10 {
				in.Jobs = append(in.Jobs, job("a", fmt.Sprintf("j%d", i), 0, time.Hour, 1, ""))
				in.Jobs[i].Team = fmt.Sprintf("t%d", i)
			}
		}},
		{"arrival before the start", "arrives before", func(in *Input) { in.Jobs[0].Arrival = -time.Second }},
		{"no work", "works 0s", func(in *Input) { in.Jobs[0].Work = 0 }},
		{"work past the clock", "works", func(in *Input) { in.Jobs[0].Work = MaxWork + 1 }},
		{"node start past the bound", "waits", func(in *Input) { in.Jobs[0].NodeStart = MaxNodeStart + 1 }},
		{"no pods", "0 pods", func(in *Input) { in.Jobs[0].Pods = 0 }},
		{"pods past the bound", "10001 pods", func(in *Input) { in.Jobs[0].Pods = MaxPods + 1 }},
		{"interruptions NaN", "interrupted NaN times", func(in *Input) { in.Jobs[0].SpotInterruptionsPerHour = math.NaN() }},
		{"interruptions past the bound", "interrupted 61 times", func(in *Input) { in.Jobs[0].SpotInterruptionsPerHour = 61 }},
		{"one name twice in a namespace", "two jobs of namespace a are named j1", func(in *Input) { in.Jobs[1].Name = "j1" }},
		{"a job named as another's retry", "would take the name of a retry of job j1", func(in *Input) { in.Jobs[1].Name = "j1-retry-1" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
			in.Jobs = []Job{job("a", "j1", 0, time.Hour, 1, ""), job("a", "j2", 0, time.Hour, 1, "")}
			c.change(&in)
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("Run panicked: %v", r)
					}
				}()
				_, err = Run(context.Background(), in)
			}()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Run returned %v; want an error containing %q", err, c.want)
			}
		})
	}
}

// The bounds hold what they say: a timeline of exactly MaxSteps steps runs.
func TestRun_timelineAtItsBound(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Horizon, in.Interval = MaxHorizon, MaxHorizon/MaxSteps
	in.Jobs = []Job{job("a", "j1", 0, time.Hour, 1, "")}
	res := simulate(t, in)
	if len(res.Timeline) != MaxSteps {
		t.Fatalf("%d steps, want %d", len(res.Timeline), MaxSteps)
	}
}

// Drawing jobs ends whatever the profile: a daily shape that weighs nothing, a rate so low that
// the gap to the next arrival passes the clock's range (both drew forever), and a duration whose
// draws pass it.
func TestJobs_alwaysEnd(t *testing.T) {
	profile := func(perDay float64, shape []float64, d Distribution) Profile {
		return Profile{Team: "a", Namespace: "a", Queue: "a", JobsPerDay: perDay, DailyShape: shape, Shapes: []Shape{{Weight: 1, Pods: 1}}, Duration: d}
	}
	hour := Distribution{Kind: "fixed", Mean: time.Hour}
	for _, c := range []struct {
		name    string
		p       Profile
		horizon time.Duration
		want    int
	}{
		{"a daily shape of zeros", profile(10, []float64{0, 0}, hour), 24 * time.Hour, 0},
		{"a daily shape of NaN", profile(10, []float64{math.NaN()}, hour), 24 * time.Hour, 0},
		{"one job in 1e300 days", profile(1e-300, nil, hour), MaxHorizon, 0},
		{"one job in 1e300 days, shaped", profile(1e-300, []float64{1, 1e-300}, hour), MaxHorizon, 0},
		{"1e308 jobs a day: drawn one past MaxJobs, no more", profile(1e308, nil, hour), 24 * time.Hour, MaxJobs + 1},
		{"infinitely many jobs a day", profile(math.Inf(1), nil, hour), 24 * time.Hour, 0},
		{"a lognormal day of a year's mean", profile(10, nil, Distribution{Kind: "lognormal", Mean: MaxHorizon, P95: 3 * MaxHorizon}), 24 * time.Hour, -1},
		{"an exponential day of a year's mean", profile(10, nil, Distribution{Kind: "exponential", Mean: MaxHorizon}), 24 * time.Hour, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan []Job, 1)
			go func() { done <- Jobs([]Profile{c.p}, c.horizon, 1) }()
			select {
			case jobs := <-done:
				if c.want >= 0 && len(jobs) != c.want {
					t.Errorf("%d jobs, want %d", len(jobs), c.want)
				}
				for _, j := range jobs {
					if j.Work < time.Minute || j.Work > MaxWork || j.Arrival < 0 || j.Arrival >= c.horizon {
						t.Errorf("job %s works %s from %s: outside 1m to MaxWork, or outside the horizon", j.Name, j.Work, j.Arrival)
					}
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Jobs did not return in 20 s")
			}
		})
	}
}

// Two profiles of one team are two kinds of its work: their jobs are numbered through the team,
// the first profile's as they always were, and both are simulated and reported together (they
// collided: `workloads "a-1" already exists`).
func TestJobs_twoProfilesOfOneTeam(t *testing.T) {
	p := func(at ...time.Duration) Profile {
		return Profile{Team: "a", Namespace: "a", Queue: "a", Arrivals: at, Shapes: []Shape{{Weight: 1, Pods: 1, Requests: job("a", "", 0, 0, 1, "").Requests}},
			Duration: Distribution{Kind: "fixed", Mean: time.Hour}}
	}
	jobs := Jobs([]Profile{p(0, time.Minute), p(2*time.Minute, 3*time.Minute, 4*time.Minute)}, 24*time.Hour, 1)
	var names []string
	for _, j := range jobs {
		names = append(names, j.Name)
	}
	if got, want := strings.Join(names, " "), "a-0 a-1 a-2 a-3 a-4"; got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Jobs = jobs
	if a := team(t, simulate(t, in), "a"); a.Submitted != 5 || a.Finished != 5 {
		t.Errorf("got %v; want the 5 jobs of both profiles submitted and finished", a)
	}
}

// One job name in two namespaces is two jobs: each is seen admitted (the engine knew a Workload
// by its name alone, and missed the admission of all but one).
func TestRun_oneNameInTwoNamespaces(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}), clusterQueue("b", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Jobs = []Job{job("a", "j", 0, time.Hour, 1, ""), job("b", "j", 0, time.Hour, 1, "")}
	res := simulate(t, in)
	for _, name := range []string{"a", "b"} {
		if tr := team(t, res, name); tr.Finished != 1 || tr.WaitMax != 0 {
			t.Errorf("team %s: %v; want its job admitted at once and finished", name, tr)
		}
	}
}

// A spot run at a rate so low that its interruption would come after the clock's end is never
// interrupted (the draw overflowed to a negative time, and interrupted it as it started).
func TestRun_spotInterruptionBeyondTheClock(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Flavor["a100"] = FlavorModel{Price: in.Flavor["a100"].Price, Spot: true}
	in.Jobs = []Job{job("a", "j", 0, time.Hour, 1, "")}
	in.Jobs[0].SpotInterruptionsPerHour = 1e-300
	if a := team(t, simulate(t, in), "a"); a.Interruptions != 0 || a.Finished != 1 {
		t.Errorf("got %v, %d interruptions; want the job finished, never interrupted", a, a.Interruptions)
	}
}

// Expected is the mean of the draws, a daily shape's parts counted for the part of the day the
// horizon covers; Runs counts the retries of spot interruptions too, up to MaxAttempts a job.
func TestProfile_expectedAndRuns(t *testing.T) {
	p := Profile{Team: "a", Namespace: "a", Queue: "a", JobsPerDay: 240, DailyShape: []float64{3, 1},
		Shapes: []Shape{{Weight: 1, Pods: 1}}, Duration: Distribution{Kind: "fixed", Mean: time.Hour}}
	horizon := 36 * time.Hour // a day, and the first half of a day, which weighs 3 of 4
	if got, want := p.Expected(horizon), 240+180.0; got != want {
		t.Errorf("Expected %v, want %v", got, want)
	}
	drawn := 0
	const seeds = 50
	for seed := range uint64(seeds) {
		drawn += len(Jobs([]Profile{p}, horizon, seed))
	}
	if mean := float64(drawn) / seeds; math.Abs(mean-420) > 15 { // 5 standard errors of the mean
		t.Errorf("the draws average %v jobs, Expected says 420", mean)
	}
	if r := p.Runs(horizon, true); r != 420 {
		t.Errorf("Runs without interruptions %v, want 420", r)
	}
	p.SpotInterruptionsPerHour = 1
	if r := p.Runs(horizon, false); r != 420 {
		t.Errorf("Runs on no spot flavor %v, want 420", r)
	}
	p.Checkpoint = true
	if r := p.Runs(horizon, true); r != 840 {
		t.Errorf("Runs with a checkpoint and one interruption an hour of a 1h run: %v, want 840", r)
	}
	p.Checkpoint, p.SpotInterruptionsPerHour = false, MaxSpotInterruptionsPerHour
	if r := p.Runs(horizon, true); r != 420*MaxAttempts {
		t.Errorf("Runs interrupted at once, every time: %v, want %v", r, 420*MaxAttempts)
	}
}
