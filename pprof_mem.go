package main

import (
	"fmt"
	"os"
	"runtime/metrics"
	"strings"
	"time"
)

// memSampler reads the Go runtime's memory figures every few milliseconds while the provider
// runs, so a profile shows where the peak came from: the live heap (what a collection kept) or
// garbage waiting for the next collection. A heap profile at exit shows neither.
type memSampler struct {
	samples []metrics.Sample
	peak    []uint64
	done    chan struct{}
	stopped chan struct{}
	// peakHeap, if set, receives a heap profile whenever the live heap reaches a new peak
	// (above 32 MB and 10% over the last one): what was live then, by allocation site.
	peakHeap string
	lastLive uint64
	// peakGoroutines, if set, receives the goroutines' stacks whenever their number reaches a new
	// peak above 20: what the requests in flight were doing.
	peakGoroutines string
	lastGoroutines uint64
}

// sampledMetrics are the runtime metrics whose maxima the sampler keeps, in this order.
var sampledMetrics = []string{
	"/memory/classes/total:bytes",        // all memory the Go runtime has mapped
	"/memory/classes/heap/objects:bytes", // heap objects, live or not yet collected
	"/gc/heap/live:bytes",                // heap the last collection kept
	"/gc/heap/goal:bytes",                // heap size at which the next collection starts
	"/gc/heap/allocs:bytes",              // allocated since start (monotonic)
	"/gc/cycles/total:gc-cycles",         // collections since start (monotonic)
	"/sched/goroutines:goroutines",       // goroutines, one per request in flight and a few more
}

func startMemSampler(every time.Duration, peakHeap, peakGoroutines string) *memSampler {
	s := &memSampler{peak: make([]uint64, len(sampledMetrics)), done: make(chan struct{}), stopped: make(chan struct{}),
		peakHeap: peakHeap, peakGoroutines: peakGoroutines}
	for _, name := range sampledMetrics {
		s.samples = append(s.samples, metrics.Sample{Name: name})
	}
	go func() {
		defer close(s.stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.done:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *memSampler) sample() {
	metrics.Read(s.samples)
	for i, m := range s.samples {
		if m.Value.Kind() == metrics.KindUint64 {
			s.peak[i] = max(s.peak[i], m.Value.Uint64())
		}
	}
	const live = 2 // index of /gc/heap/live:bytes
	if v := s.samples[live].Value.Uint64(); s.peakHeap != "" && v > 32<<20 && v > s.lastLive+s.lastLive/10 {
		s.lastLive = v
		writeProfile(s.peakHeap, "heap", 0)
	}
	const goroutines = 6 // index of /sched/goroutines:goroutines
	if v := s.samples[goroutines].Value.Uint64(); s.peakGoroutines != "" && v > 20 && v > s.lastGoroutines {
		s.lastGoroutines = v
		writeProfile(s.peakGoroutines, "goroutine", 1)
	}
}

// stop ends the sampling and writes each metric's maximum, and the process's peak RSS, to path.
func (s *memSampler) stop(path string) {
	close(s.done)
	<-s.stopped
	s.sample()
	var b strings.Builder
	for i, name := range sampledMetrics {
		fmt.Fprintf(&b, "%s %d\n", name, s.peak[i])
	}
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "VmHWM:") || strings.HasPrefix(line, "VmRSS:") {
				b.WriteString(line + "\n")
			}
		}
	}
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
