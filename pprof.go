package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileEnv names the file prefix of an opt-in CPU profile of the provider process.
const profileEnv = "MLPLATFORM_PPROF"

// startCPUProfile starts a CPU profile into $MLPLATFORM_PPROF.<pid> when the variable is set, and
// returns what stops it and writes the file, and a heap profile of what is still live at the end
// into $MLPLATFORM_PPROF.heap.<pid>.
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
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		if h, err := os.Create(fmt.Sprintf("%s.heap.%d", prefix, os.Getpid())); err == nil {
			runtime.GC() // the profile shows what the last GC found live
			_ = pprof.WriteHeapProfile(h)
			h.Close()
		}
	}, nil
}
