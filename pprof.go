package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// profileEnv names the file prefix of an opt-in CPU profile of the provider process.
const profileEnv = "MLPLATFORM_PPROF"

// startCPUProfile starts a CPU profile into $MLPLATFORM_PPROF.<pid> when the variable is set, and
// returns what stops it and writes the file, a heap profile of what is still live at the end
// into $MLPLATFORM_PPROF.heap.<pid>, and the goroutines still running then (which hold what they
// reference live) into $MLPLATFORM_PPROF.goroutine.<pid>, and the peaks of the runtime's memory
// figures while it ran into $MLPLATFORM_PPROF.mem.<pid>, with a heap profile taken at the live
// heap's highest peak (above 32 MB) in $MLPLATFORM_PPROF.peakheap.<pid> and the goroutines at
// their highest number (above 20) in $MLPLATFORM_PPROF.peakgoroutine.<pid>.
func startCPUProfile() (func(), error) {
	prefix := os.Getenv(profileEnv)
	if prefix == "" {
		return func() {}, nil
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", prefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	file := func(kind string) string { return fmt.Sprintf("%s.%s.%d", prefix, kind, os.Getpid()) }
	mem := startMemSampler(5*time.Millisecond, file("peakheap"), file("peakgoroutine"))
	return func() {
		mem.stop(file("mem"))
		pprof.StopCPUProfile()
		f.Close()
		// The profile shows what the last GC found live; the second GC also empties sync.Pools,
		// whose contents survive one.
		runtime.GC()
		runtime.GC()
		writeProfile(file("heap"), "heap", 0)
		writeProfile(file("goroutine"), "goroutine", 1)
	}, nil
}

// writeProfile writes runtime/pprof's profile name ("heap", "goroutine") to path: in pprof's
// format with debug 0, as text with 1.
func writeProfile(path, name string, debug int) {
	if f, err := os.Create(path); err == nil {
		_ = pprof.Lookup(name).WriteTo(f, debug)
		f.Close()
	}
}
