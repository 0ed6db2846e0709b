package main

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// describeMachine names the CPU, its cores and the CLI's version, for the table's header.
func describeMachine(tf string) string {
	model := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	version := "unknown version"
	if out, err := exec.Command(tf, "version").Output(); err == nil {
		version = strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0]
	}
	return model + ", " + strconv.Itoa(runtime.NumCPU()) + " cores; " + version
}

// loadAverage is the machine's load average (1, 5 and 15 minutes) now.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average " + strings.Join(f[:3], " ")
}
