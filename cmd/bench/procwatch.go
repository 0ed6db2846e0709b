package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on Linux.
const clockTicks = 100

// watch samples, while a CLI command runs, the plugin processes it starts whose executable's name
// begins with prefix (e.g. terraform-provider-mlplatform): their peak RSS (VmHWM, which the kernel
// keeps as a high-water mark, so a sample just before exit still sees the peak) and CPU time.
type watch struct {
	parent int
	prefix string
	stop   chan struct{}
	done   chan struct{}

	mu    sync.Mutex
	hwm   map[int]int64 // pid -> VmHWM in bytes
	ticks map[int]int64 // pid -> utime+stime in clock ticks
	seen  map[int]bool  // pid -> is a plugin process of prefix (false: not seen so far)
}

func startWatch(parent int, prefix string) *watch {
	w := &watch{
		parent: parent, prefix: prefix, stop: make(chan struct{}), done: make(chan struct{}),
		hwm: map[int]int64{}, ticks: map[int]int64{}, seen: map[int]bool{},
	}
	go w.loop()
	return w
}

func (w *watch) loop() {
	defer close(w.done)
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		// The children files miss a child whose forking thread has exited (proc(5) calls them
		// unreliable), so every fifth sample scans all of /proc for the parent's children too.
		w.sample(i%5 == 0)
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
	}
}

// finish stops sampling and returns the peak RSS (bytes) of any one plugin process, the CPU
// seconds of all of them, and how many there were.
func (w *watch) finish() (peak int64, cpu float64, procs int) {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	for pid, ok := range w.seen {
		if !ok {
			continue
		}
		procs++
		peak = max(peak, w.hwm[pid])
		cpu += float64(w.ticks[pid]) / clockTicks
	}
	return peak, cpu, procs
}

func (w *watch) sample(scan bool) {
	pids := children(w.parent)
	if scan {
		pids = append(pids, scanChildren(w.parent)...)
	}
	for _, pid := range pids {
		w.mu.Lock()
		known := w.seen[pid]
		w.mu.Unlock()
		// Not known yet is asked again each time: a child read between fork and exec still
		// shows the CLI's executable.
		if !known {
			exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
			if err != nil {
				continue
			}
			w.mu.Lock()
			w.seen[pid] = strings.HasPrefix(filepath.Base(exe), w.prefix)
			known = w.seen[pid]
			w.mu.Unlock()
			if !known {
				continue
			}
		}
		hwm, ok := vmHWM(pid)
		ticks, ok2 := cpuTicks(pid)
		w.mu.Lock()
		if ok {
			w.hwm[pid] = max(w.hwm[pid], hwm)
		}
		if ok2 {
			w.ticks[pid] = max(w.ticks[pid], ticks)
		}
		w.mu.Unlock()
	}
}

// children lists the processes whose parent is pid, from /proc/<pid>/task/*/children (a child
// forked by any of the parent's threads is listed under that thread).
func children(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// scanChildren lists the processes whose parent (field 4 of /proc/<pid>/stat) is pid.
func scanChildren(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, c)
		}
	}
	return out
}

// vmHWM is the peak resident set size of pid in bytes.
func vmHWM(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest) // "<n> kB"
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// cpuTicks is utime+stime of pid (fields 14 and 15 of /proc/<pid>/stat).
func cpuTicks(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces; the fields after its closing parenthesis don't.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	return u + st, err1 == nil && err2 == nil
}
