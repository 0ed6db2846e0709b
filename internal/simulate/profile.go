package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Profile is one team's jobs in a day, drawn at random from the seed.
type Profile struct {
	Team, Namespace, Queue string
	// JobsPerDay arrive at random (Poisson) through each day of the horizon, more in the parts of
	// the day DailyShape weighs more (equal parts of 24 hours; nil: evenly).
	JobsPerDay float64
	DailyShape []float64
	// Arrivals, when set, are the jobs' arrival times instead.
	Arrivals   []time.Duration
	Shapes     []Shape
	Duration   Distribution
	Priorities []Weighted
	Checkpoint bool
	// NodeStart is how long an admitted run waits for its node before it works.
	NodeStart time.Duration
	// SpotInterruptionsPerHour is how often a run on a spot flavor loses its node.
	SpotInterruptionsPerHour float64
}

// Shape is one kind of job of a profile: what each of its pods asks for.
type Shape struct {
	Weight       float64
	Pods         int32
	Requests     corev1.ResourceList
	NodeSelector map[string]string
}

// Weighted is a name and its share.
type Weighted struct {
	Name   string
	Weight float64
}

// Distribution is how long a job computes.
type Distribution struct {
	// Kind is fixed (Mean), exponential (Mean), uniform (Min to Max) or lognormal (Mean and P95).
	Kind                string
	Mean, Min, Max, P95 time.Duration
}

// Distributions are the kinds of Distribution.
var Distributions = []string{"fixed", "exponential", "uniform", "lognormal"}

// Check refuses a distribution that cannot be drawn from, naming the attribute.
func (d Distribution) Check() error {
	switch d.Kind {
	case "fixed", "exponential":
		if d.Mean <= 0 {
			return fmt.Errorf("mean must be positive for a %s duration", d.Kind)
		}
	case "uniform":
		if d.Min <= 0 || d.Max < d.Min {
			return fmt.Errorf("a uniform duration needs 0 < min <= max (min %s, max %s)", d.Min, d.Max)
		}
	case "lognormal":
		if d.Mean <= 0 || d.P95 <= d.Mean {
			return fmt.Errorf("a lognormal duration needs 0 < mean < p95 (mean %s, p95 %s)", d.Mean, d.P95)
		}
		if _, ok := d.sigma(); !ok {
			return fmt.Errorf("no lognormal distribution has mean %s and p95 %s: p95 is more than %.1f times the mean", d.Mean, d.P95, math.Exp(1.645*1.645/2))
		}
	default:
		return fmt.Errorf("distribution %q is none of %v", d.Kind, Distributions)
	}
	if d.Max < 0 {
		return fmt.Errorf("max must not be negative")
	}
	return nil
}

// sigma is the lognormal's shape from its mean and 95th percentile: ln(p95/mean) = 1.645s - s^2/2.
func (d Distribution) sigma() (float64, bool) {
	c := math.Log(float64(d.P95) / float64(d.Mean))
	disc := 1.645*1.645 - 2*c
	if disc < 0 {
		return 0, false
	}
	return 1.645 - math.Sqrt(disc), true
}

func (d Distribution) draw(rng *rand.Rand) time.Duration {
	var v float64
	switch d.Kind {
	case "fixed":
		v = float64(d.Mean)
	case "exponential":
		v = rng.ExpFloat64() * float64(d.Mean)
	case "uniform":
		v = float64(d.Min) + rng.Float64()*float64(d.Max-d.Min)
	case "lognormal":
		s, _ := d.sigma()
		mu := math.Log(float64(d.Mean)) - s*s/2
		v = math.Exp(mu + s*rng.NormFloat64())
	}
	out := max(time.Minute, time.Duration(min(v, float64(MaxWork))).Round(time.Second))
	if d.Max > 0 && out > d.Max {
		out = d.Max
	}
	return out
}

// Expected is how many jobs the profile brings over the horizon, for bounding a run's size: the
// mean of the Poisson draws, its daily shape's parts counted for the part of a day the horizon
// ends in.
func (p *Profile) Expected(horizon time.Duration) float64 {
	if len(p.Arrivals) > 0 {
		return float64(len(p.Arrivals))
	}
	shape, total := p.shape()
	if !(p.JobsPerDay > 0) || !(total > 0) || horizon <= 0 {
		return 0
	}
	const day = 24 * time.Hour
	n := p.JobsPerDay * float64(horizon/day)
	part := day / time.Duration(len(shape))
	for i, rest := 0, horizon%day; i < len(shape) && time.Duration(i)*part < rest; i++ {
		n += p.JobsPerDay * shape[i] / total * float64(min(part, rest-time.Duration(i)*part)) / float64(part)
	}
	return n
}

// Runs is how many Workloads the profile's jobs are expected to queue over the horizon, on
// flavors of spot capacity or not: a spot interruption queues its job again, up to MaxAttempts
// times. Without a checkpoint an attempt must run its whole work uninterrupted (a geometric
// number of attempts); with one, each interruption costs one more.
func (p *Profile) Runs(horizon time.Duration, spot bool) float64 {
	n := p.Expected(horizon)
	rate := p.SpotInterruptionsPerHour
	if !spot || !(rate > 0) {
		return n
	}
	interruptions := rate * p.Duration.mean().Hours() // per job, in its work
	per := 1 + interruptions
	if !p.Checkpoint {
		per = MaxAttempts
		if q := math.Exp(-interruptions); q > 1e-9 { // an attempt's chance to finish
			per = (1 - math.Pow(1-q, MaxAttempts)) / q
		}
	}
	return n * min(per, MaxAttempts)
}

// mean is the distribution's mean, cut to its max.
func (d Distribution) mean() time.Duration {
	m := d.Mean
	if d.Kind == "uniform" {
		m = d.Min + (d.Max-d.Min)/2
	}
	if d.Max > 0 {
		m = min(m, d.Max)
	}
	return m
}

// shape is the daily shape's weights (evenly, when it has none) and their sum.
func (p *Profile) shape() ([]float64, float64) {
	shape := p.DailyShape
	if len(shape) == 0 {
		shape = []float64{1}
	}
	total := 0.0
	for _, w := range shape {
		total += w
	}
	return shape, total
}

// Jobs draws the profiles' jobs over the horizon from the seed: the same seed, the same jobs. A
// team's jobs are numbered through all its profiles (<team>-<n>), so that two profiles of one team
// (two kinds of its work) never name a job alike.
func Jobs(profiles []Profile, horizon time.Duration, seed uint64) []Job {
	var jobs []Job
	next := map[string]int{} // by team
	for i := range profiles {
		if len(jobs) > MaxJobs {
			break // Run refuses them anyway: drawing more would only take memory
		}
		p := &profiles[i]
		rng := rand.New(rand.NewPCG(seed, uint64(i)+1))
		for _, at := range p.arrivals(rng, horizon) {
			s := pick(rng, len(p.Shapes), func(i int) float64 { return p.Shapes[i].Weight })
			shape := p.Shapes[s]
			n := next[p.Team]
			next[p.Team]++
			j := Job{
				Name: fmt.Sprintf("%s-%d", p.Team, n), Namespace: p.Namespace, Queue: p.Queue, Team: p.Team,
				Arrival: at, Work: p.Duration.draw(rng), Pods: max(1, shape.Pods), Requests: shape.Requests,
				NodeSelector: shape.NodeSelector, Checkpoint: p.Checkpoint, NodeStart: p.NodeStart,
				SpotInterruptionsPerHour: p.SpotInterruptionsPerHour,
			}
			if len(p.Priorities) > 0 {
				j.PriorityClass = p.Priorities[pick(rng, len(p.Priorities), func(i int) float64 { return p.Priorities[i].Weight })].Name
			}
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// arrivals are the explicit ones, or a Poisson process whose rate follows the daily shape.
func (p *Profile) arrivals(rng *rand.Rand, horizon time.Duration) []time.Duration {
	if len(p.Arrivals) > 0 {
		return p.Arrivals
	}
	shape, total := p.shape()
	if !(p.JobsPerDay > 0) || !(total > 0) || len(shape) > int(24*time.Hour) {
		return nil // no job, no part of the day weighs anything, or a part would be shorter than the clock's tick
	}
	part := 24 * time.Hour / time.Duration(len(shape))
	var out []time.Duration
	for start := time.Duration(0); start < horizon; start += part {
		i := int(start/part) % len(shape)
		rate := p.JobsPerDay * shape[i] / total / part.Hours() // jobs per hour in this part
		if !(rate > 0) || math.IsInf(rate, 0) {                // NaN or infinite: a gap of nothing, forever
			continue
		}
		end := min(start+part, horizon)
		for t := start; len(out) <= MaxJobs; { // one past the bound is enough for Check to refuse
			// Compared before it becomes a Duration: at a low rate a gap can pass the clock's range.
			gap := rng.ExpFloat64() / rate * float64(time.Hour)
			if gap >= float64(end-t) {
				break
			}
			t += time.Duration(gap)
			out = append(out, t.Round(time.Second))
		}
	}
	return out
}

// pick draws an index by weight; weights that are all zero draw evenly.
func pick(rng *rand.Rand, n int, weight func(int) float64) int {
	total := 0.0
	for i := range n {
		total += weight(i)
	}
	if total <= 0 {
		return rng.IntN(n)
	}
	x := rng.Float64() * total
	for i := range n {
		if x -= weight(i); x < 0 {
			return i
		}
	}
	return n - 1
}
