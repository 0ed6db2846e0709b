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
	out := max(time.Minute, time.Duration(v).Round(time.Second))
	if d.Max > 0 && out > d.Max {
		out = d.Max
	}
	return out
}

// Expected is how many jobs the profile brings over the horizon, for bounding a run's size.
func (p *Profile) Expected(horizon time.Duration) float64 {
	if len(p.Arrivals) > 0 {
		return float64(len(p.Arrivals))
	}
	return p.JobsPerDay * horizon.Hours() / 24
}

// Jobs draws the profiles' jobs over the horizon from the seed: the same seed, the same jobs.
func Jobs(profiles []Profile, horizon time.Duration, seed uint64) []Job {
	var jobs []Job
	for i := range profiles {
		p := &profiles[i]
		rng := rand.New(rand.NewPCG(seed, uint64(i)+1))
		for n, at := range p.arrivals(rng, horizon) {
			s := pick(rng, len(p.Shapes), func(i int) float64 { return p.Shapes[i].Weight })
			shape := p.Shapes[s]
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
	shape := p.DailyShape
	if len(shape) == 0 {
		shape = []float64{1}
	}
	total := 0.0
	for _, w := range shape {
		total += w
	}
	part := 24 * time.Hour / time.Duration(len(shape))
	var out []time.Duration
	for start := time.Duration(0); start < horizon; start += part {
		i := int(start/part) % len(shape)
		rate := p.JobsPerDay * shape[i] / total / part.Hours() // jobs per hour in this part
		if rate <= 0 {
			continue
		}
		for t := start; ; {
			t += time.Duration(rng.ExpFloat64() / rate * float64(time.Hour))
			if t >= start+part || t >= horizon {
				break
			}
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
