package simulate

import (
	"context"
	"fmt"
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

func BenchmarkRun(b *testing.B) {
	for _, n := range []int{40, 400, 2000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			in := busyDay(n)
			var res *Result
			for b.Loop() {
				var err error
				if res, err = Run(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Cycles), "cycles")
		})
	}
}
