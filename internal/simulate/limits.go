package simulate

import (
	"fmt"
	"regexp"
	"time"
)

// The bounds of one run. The data source refuses at plan, naming the attribute, what passes
// them; Run refuses it too (Check), so that no input panics, overflows the virtual clock or
// grows without end. The figures they keep a run within are measured by BenchmarkLimits.
const (
	// MaxHorizon is the longest horizon: a year, leap or not.
	MaxHorizon = 366 * 24 * time.Hour
	// MaxSteps bounds the timeline, which the provider and Terraform both hold.
	MaxSteps = 10_000
	// MaxTimelineValues bounds the timeline's values: its steps times the flavors and teams
	// each step reports.
	MaxTimelineValues = 100_000
	// MaxJobs is the most jobs one run takes, whatever max_jobs says.
	MaxJobs = 50_000
	// MaxWork bounds one job's work: a longer draw is cut to it, which changes nothing, as a job
	// that long is still running at any horizon.
	MaxWork = 2 * MaxHorizon
	// MaxNodeStart bounds how long an admitted run waits for its node.
	MaxNodeStart = 24 * time.Hour
	// MaxSpotInterruptionsPerHour is one a minute.
	MaxSpotInterruptionsPerHour = 60
	// MaxPods bounds the pods of one job (one Workload's pod set, whose count Kueue keeps in
	// an int32).
	MaxPods = 10_000
)

// Steps is how many steps a timeline of horizon by interval has, without overflowing.
func Steps(horizon, interval time.Duration) int64 {
	if horizon <= 0 || interval <= 0 {
		return 0
	}
	n := int64(horizon / interval)
	if horizon%interval != 0 {
		n++
	}
	return n
}

// retryName is what a retry of a job names its Workload (engine.queue).
var retryName = regexp.MustCompile(`^(.*)-retry-[0-9]+$`)

// Check refuses an input that Run could not take within its bounds.
func (in *Input) Check() error {
	if in.Horizon <= 0 || in.Horizon > MaxHorizon {
		return fmt.Errorf("the horizon must be longer than zero and at most %s (%s)", MaxHorizon, in.Horizon)
	}
	if s := Steps(in.Horizon, in.Interval); s > MaxSteps {
		return fmt.Errorf("the timeline would have %d steps (horizon %s by interval %s), more than %d", s, in.Horizon, in.Interval, MaxSteps)
	}
	if len(in.Jobs) > MaxJobs {
		return fmt.Errorf("%d jobs, more than %d", len(in.Jobs), MaxJobs)
	}
	teams := map[string]bool{}
	for i := range in.Jobs {
		teams[in.Jobs[i].team()] = true
	}
	// Each step reports every flavor's GPUs in use and every team's jobs waiting.
	if s, per := Steps(in.Horizon, in.Interval), int64(len(in.Flavors)+len(teams)); s*per > MaxTimelineValues {
		return fmt.Errorf("the timeline would have %d values (%d steps of %d flavors and %d teams), more than %d",
			s*per, s, len(in.Flavors), len(teams), MaxTimelineValues)
	}
	names := make(map[[2]string]bool, len(in.Jobs))
	for i := range in.Jobs {
		j := &in.Jobs[i]
		switch {
		case j.Arrival < 0:
			return fmt.Errorf("job %s arrives before the horizon's start (%s)", j.Name, j.Arrival)
		case j.Work <= 0 || j.Work > MaxWork:
			return fmt.Errorf("job %s works %s: more than zero and at most %s", j.Name, j.Work, MaxWork)
		case j.NodeStart < 0 || j.NodeStart > MaxNodeStart:
			return fmt.Errorf("job %s waits %s for its node: zero to %s", j.Name, j.NodeStart, MaxNodeStart)
		case j.Pods < 1 || j.Pods > MaxPods:
			return fmt.Errorf("job %s has %d pods: 1 to %d", j.Name, j.Pods, MaxPods)
		case !(j.SpotInterruptionsPerHour >= 0 && j.SpotInterruptionsPerHour <= MaxSpotInterruptionsPerHour):
			return fmt.Errorf("job %s is interrupted %g times an hour: 0 to %d", j.Name, j.SpotInterruptionsPerHour, MaxSpotInterruptionsPerHour)
		case names[[2]string{j.Namespace, j.Name}]:
			return fmt.Errorf("two jobs of namespace %s are named %s", j.Namespace, j.Name)
		}
		names[[2]string{j.Namespace, j.Name}] = true
	}
	// A retry's Workload is <job>-retry-<n>: no other job of the namespace may be named so.
	for i := range in.Jobs {
		j := &in.Jobs[i]
		if m := retryName.FindStringSubmatch(j.Name); m != nil && names[[2]string{j.Namespace, m[1]}] {
			return fmt.Errorf("job %s of namespace %s would take the name of a retry of job %s", j.Name, j.Namespace, m[1])
		}
	}
	return nil
}
