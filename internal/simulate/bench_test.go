package simulate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// busyDay is n jobs over three teams in a cohort, arriving through a day.
func busyDay(n int) Input {
	pre := kueue.ClusterQueuePreemption{WithinClusterQueue: kueue.PreemptionPolicyLowerPriority, ReclaimWithinCohort: kueue.PreemptionPolicyAny}
	in := platform(
		clusterQueue("a", "pool", quota{16, -1, -1}, pre),
		clusterQueue("b", "pool", quota{16, -1, -1}, pre),
		clusterQueue("c", "pool", quota{16, -1, -1}, pre),
	)
	in.Horizon = 36 * time.Hour
	for i := range n {
		tm := []string{"a", "b", "c"}[i%3]
		p := []string{"low", "high", "low"}[i%3]
		in.Jobs = append(in.Jobs, job(tm, fmt.Sprintf("%s-%d", tm, i), time.Duration(i)*24*time.Hour/time.Duration(n),
			time.Duration(30+(i*37)%150)*time.Minute*time.Duration(max(1, 400/n)), int64(1+i%4), p))
	}
	return in
}

// steadyDays is 400 jobs a day for days days on the same platform, at about 80% of its GPUs: the
// queues stay short, as on a platform sized for its load.
func steadyDays(days int) Input {
	in := busyDay(400)
	in.Jobs = nil
	in.Horizon = time.Duration(days)*24*time.Hour + 12*time.Hour
	n := 400 * days
	for i := range n {
		tm := []string{"a", "b", "c"}[i%3]
		p := []string{"low", "high", "low"}[i%3]
		in.Jobs = append(in.Jobs, job(tm, fmt.Sprintf("%s-%d", tm, i), time.Duration(i)*24*time.Hour/400,
			time.Duration(20+(i*37)%80)*time.Minute, int64(1+i%4), p))
	}
	return in
}

// BenchmarkRun prints a run's time and memory: days of 40 to 2000 jobs that saturate the GPUs
// (queues of hundreds), and 10,000 jobs over 25 days at a steady load. peak_RSS_MB is the test
// process's peak so far (VmHWM), so a case's figure holds when it runs alone or after smaller ones.
func BenchmarkRun(b *testing.B) {
	cases := []struct {
		name string
		in   Input
	}{
		{"saturated_day/jobs=40", busyDay(40)},
		{"saturated_day/jobs=400", busyDay(400)},
		{"saturated_day/jobs=2000", busyDay(2000)},
		{"steady_25_days/jobs=10000", steadyDays(25)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var res *Result
			for b.Loop() {
				var err error
				if res, err = Run(context.Background(), c.in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Cycles), "cycles")
			b.ReportMetric(res.Flavors[0].Utilisation*100, "%util")
			b.ReportMetric(float64(res.Teams[0].WaitP95)/float64(time.Minute), "p95wait_min")
			b.ReportMetric(peakRSS(b), "peak_RSS_MB")
		})
	}
}

// peakRSS is the process's peak resident memory in MB, from /proc/self/status.
func peakRSS(b *testing.B) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status:", err)
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return v / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
