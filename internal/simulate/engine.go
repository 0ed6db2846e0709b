package simulate

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/go-logr/logr"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/event"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"
)

// epoch is the virtual clock's start: any fixed instant, so that runs repeat.
var epoch = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// memoryLimit is the Go runtime's soft limit while a run lasts (unless the process has a lower
// one): a run's live heap is tens of MB, but it allocates gigabytes, and the default GC pacing
// would let the heap grow to twice the live size and the provider past 200 MB.
const memoryLimit = 150 << 20

// quietControllerRuntime sets controller-runtime's global logger, which Kueue's handlers log
// through: until one is set, it keeps every logger derived from it (tens of MB over a run) and
// prints a stack trace after 30 s.
var quietControllerRuntime sync.Once

// MaxAttempts bounds how often one job is queued again after a preemption or an interruption; a
// job that reaches it is given up and counted (a preemption loop).
const MaxAttempts = 50

// run is one job's life in the simulation.
type run struct {
	job     *Job
	attempt int
	name    string // the current attempt's Workload
	pending bool
	running bool
	// started is when the current attempt's work starts: admission plus the node's start.
	started       time.Duration
	admitted      bool
	firstWait     time.Duration
	done, lost    time.Duration // work done before the current attempt, and work thrown away
	flavor        string
	cq            string
	usage         map[slot]float64 // GPU units held while admitted
	finished      bool
	gaveUp        bool
	preemptions   map[string]int
	interruptions int
}

type eventKind int

const (
	arrive eventKind = iota
	finish
	interrupt
)

type simEvent struct {
	at      time.Duration
	seq     int
	kind    eventKind
	run     *run
	attempt int
}

type eventQueue []simEvent

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(simEvent)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type engine struct {
	in     *Input
	ctx    context.Context
	clock  *testingclock.FakeClock
	kueue  *kueueInstance
	now    time.Duration
	events eventQueue
	seq    int
	runs   []*run
	byName map[types.NamespacedName]*run // by Workload
	rng    *rand.Rand
	acct   *accounts
	cycles int
	// maxCycles bounds the whole run, so that no input hangs a plan.
	maxCycles int
	stopped   string
}

// Run simulates in. The same input gives the same result.
func Run(ctx context.Context, in Input) (*Result, error) {
	if in.Interval <= 0 {
		in.Interval = max(1, in.Horizon/96)
	}
	if err := in.Check(); err != nil {
		return nil, err
	}
	if err := admit(ctx, &in); err != nil {
		return nil, err
	}
	kueueGlobals.Lock()
	defer kueueGlobals.Unlock()
	quietControllerRuntime.Do(func() { ctrllog.SetLogger(logr.Discard()) })
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(min(memoryLimit, debug.SetMemoryLimit(-1))))

	ctx = ctrl.LoggerInto(ctx, logr.Discard())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e := &engine{
		in:        &in,
		ctx:       ctx,
		clock:     testingclock.NewFakeClock(epoch),
		byName:    map[types.NamespacedName]*run{},
		rng:       rand.New(rand.NewPCG(in.Seed, 0x6d6c706c6174)),
		maxCycles: 1000 + 40*len(in.Jobs)*4,
	}
	k, err := newKueue(ctx, e.clock, &in)
	if err != nil {
		return nil, fmt.Errorf("loading the queues into Kueue: %w", err)
	}
	e.kueue = k
	e.acct = newAccounts(&in)
	for i := range in.Jobs {
		j := &in.Jobs[i]
		r := &run{job: j, preemptions: map[string]int{}}
		e.runs = append(e.runs, r)
		e.push(j.Arrival, arrive, r)
	}
	if err := e.loop(); err != nil {
		return nil, err
	}
	return e.result(), nil
}

func (e *engine) push(at time.Duration, kind eventKind, r *run) {
	e.seq++
	heap.Push(&e.events, simEvent{at: at, seq: e.seq, kind: kind, run: r, attempt: r.attempt})
}

func (e *engine) loop() error {
	for len(e.events) > 0 && e.stopped == "" {
		at := e.events[0].at
		if at > e.in.Horizon {
			break
		}
		e.advance(at)
		for len(e.events) > 0 && e.events[0].at == at {
			ev := heap.Pop(&e.events).(simEvent)
			if err := e.handle(ev); err != nil {
				return err
			}
		}
		if err := e.settle(); err != nil {
			return err
		}
	}
	e.advance(e.in.Horizon)
	return nil
}

// advance moves the clock, accounting what was in use and waiting meanwhile.
func (e *engine) advance(to time.Duration) {
	if to <= e.now {
		return
	}
	e.acct.elapse(e.now, to)
	e.now = to
	e.clock.SetTime(epoch.Add(to))
}

func (e *engine) handle(ev simEvent) error {
	r := ev.run
	switch ev.kind {
	case arrive:
		return e.queue(r)
	case finish, interrupt:
		if ev.attempt != r.attempt || !r.running {
			return nil // the attempt was preempted before
		}
		worked := e.now - r.started
		if ev.kind == finish {
			r.done += worked
			r.finished = true
			return e.end(r, true)
		}
		r.interruptions++
		e.stop(r, worked)
		if err := e.end(r, false); err != nil {
			return err
		}
		return e.retry(r)
	}
	return nil
}

// stop ends a running attempt that did not finish, keeping its work if the job checkpoints.
func (e *engine) stop(r *run, worked time.Duration) {
	if worked < 0 {
		worked = 0
	}
	if r.job.Checkpoint {
		r.done += worked
	} else {
		r.lost += worked + r.done
		r.done = 0
	}
}

// queue creates the job's next Workload, as the pod Argo creates for it reaches Kueue.
func (e *engine) queue(r *run) error {
	j := r.job
	r.name = j.Name
	if r.attempt > 0 {
		r.name = fmt.Sprintf("%s-retry-%d", j.Name, r.attempt)
	}
	wl := newWorkload(e.in, j, r.name, epoch.Add(e.now))
	if err := e.kueue.client.Create(e.ctx, wl); err != nil {
		return fmt.Errorf("job %s: %w", j.Name, err)
	}
	e.byName[types.NamespacedName{Namespace: j.Namespace, Name: r.name}] = r
	r.pending, r.running = true, false
	e.acct.pending[r.job.team()]++
	e.kueue.workloads.Create(event.TypedCreateEvent[*kueue.Workload]{Object: wl})
	return nil
}

// end takes the attempt's Workload out: finished (the pod ended) when the job is done, then
// deleted, as Argo deletes a pod once the step ends or is retried.
func (e *engine) end(r *run, completed bool) error {
	key := types.NamespacedName{Namespace: r.job.Namespace, Name: r.name}
	old := &kueue.Workload{}
	if err := e.kueue.client.Get(e.ctx, key, old); err != nil {
		return fmt.Errorf("job %s: %w", r.job.Name, err)
	}
	if completed {
		wl := old.DeepCopy()
		apimeta.SetStatusCondition(&wl.Status.Conditions, metav1.Condition{
			Type: kueue.WorkloadFinished, Status: metav1.ConditionTrue, Reason: kueue.WorkloadFinishedReasonSucceeded,
			Message: "the run ended", LastTransitionTime: metav1.NewTime(epoch.Add(e.now)),
		})
		if err := e.kueue.client.Status().Update(e.ctx, wl); err != nil {
			return fmt.Errorf("job %s: %w", r.job.Name, err)
		}
		delete(e.kueue.written, key)
		e.kueue.workloads.Update(event.TypedUpdateEvent[*kueue.Workload]{ObjectOld: old, ObjectNew: wl})
		old = wl
	}
	if err := e.kueue.client.Delete(e.ctx, old); err != nil {
		return fmt.Errorf("job %s: %w", r.job.Name, err)
	}
	delete(e.kueue.written, key)
	e.kueue.workloads.Delete(event.TypedDeleteEvent[*kueue.Workload]{Object: old})
	delete(e.byName, key)
	if r.pending {
		e.acct.pending[r.job.team()]--
	}
	e.acct.stop(r)
	r.running, r.pending, r.usage = false, false, nil
	return nil
}

// retry queues the job again after a preemption or an interruption, unless it has looped.
func (e *engine) retry(r *run) error {
	r.attempt++
	if r.attempt >= MaxAttempts {
		r.gaveUp = true
		return nil
	}
	return e.queue(r)
}

// settle runs scheduling cycles at the current instant until Kueue has nothing left to decide:
// no head to try, or a cycle that changed nothing and set no workload aside.
func (e *engine) settle() error {
	for {
		e.kueue.requeuer.ProcessRequeues(e.ctx)
		active, inadmissible := e.kueue.activePending()
		if active == 0 {
			return nil
		}
		if e.cycles >= e.maxCycles {
			e.stopped = fmt.Sprintf("stopped at %s after %d scheduling cycles, the bound for %d jobs", e.now, e.cycles, len(e.in.Jobs))
			return nil
		}
		e.cycles++
		scheduleCycle(e.kueue.scheduler, e.ctx)
		changed, err := e.observe()
		if err != nil {
			return err
		}
		if !changed {
			if a, i := e.kueue.activePending(); a == active && i == inadmissible {
				return nil // StrictFIFO's head blocks until something is released
			}
		}
	}
}

// observe feeds the Workloads a cycle wrote to Kueue's workload event handlers, as the API
// server's watch would, and acts on admissions and preemptions.
func (e *engine) observe() (bool, error) {
	keys := make([]types.NamespacedName, 0, len(e.kueue.written))
	for k := range e.kueue.written {
		keys = append(keys, k)
	}
	clear(e.kueue.written)
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		if a.Namespace != b.Namespace {
			if a.Namespace < b.Namespace {
				return -1
			}
			return 1
		}
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	changed := false
	for _, key := range keys {
		r := e.byName[key]
		if r == nil {
			continue
		}
		wl := &kueue.Workload{}
		if err := e.kueue.client.Get(e.ctx, key, wl); err != nil {
			return false, fmt.Errorf("job %s: %w", r.job.Name, err)
		}
		old := r.lastSeen(wl)
		e.kueue.workloads.Update(event.TypedUpdateEvent[*kueue.Workload]{ObjectOld: old, ObjectNew: wl})
		switch {
		case isEvicted(wl) && (r.running || r.admitted && !r.pending):
			changed = true
			if err := e.preempted(r, wl); err != nil {
				return false, err
			}
		case workload.HasQuotaReservation(wl) && r.pending:
			changed = true
			e.admit(r, wl)
		}
	}
	return changed, nil
}

func isEvicted(wl *kueue.Workload) bool {
	return apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadEvicted)
}

// lastSeen is the Workload as the handlers last saw it: pending, or holding quota while running.
func (r *run) lastSeen(now *kueue.Workload) *kueue.Workload {
	old := now.DeepCopy()
	if r.pending {
		old.Status = kueue.WorkloadStatus{}
	} else {
		apimeta.RemoveStatusCondition(&old.Status.Conditions, kueue.WorkloadEvicted)
		apimeta.RemoveStatusCondition(&old.Status.Conditions, kueue.WorkloadPreempted)
	}
	return old
}

func (e *engine) admit(r *run, wl *kueue.Workload) {
	if !r.admitted {
		r.firstWait = e.now - r.job.Arrival
	}
	r.admitted, r.pending, r.running = true, false, true
	e.acct.pending[r.job.team()]--
	e.acct.start(r)
	r.cq = string(wl.Status.Admission.ClusterQueue)
	r.usage, r.flavor = e.acct.usageOf(wl)
	r.started = e.now + r.job.NodeStart
	left := r.job.Work - r.done
	e.push(r.started+left, finish, r)
	if rate := r.job.SpotInterruptionsPerHour; rate > 0 && e.in.Flavor[r.flavor].Spot {
		// Compared before it becomes a Duration: a draw at a low rate can pass the clock's range.
		if after := e.rng.ExpFloat64() / rate * float64(time.Hour); after < float64(left) {
			e.push(r.started+time.Duration(after), interrupt, r)
		}
	}
}

// preempted is the eviction Kueue's preemptor wrote: the pod is stopped and Argo's retry queues a
// new one.
func (e *engine) preempted(r *run, wl *kueue.Workload) error {
	reason := "Preempted"
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadPreempted); c != nil {
		reason = c.Reason
	}
	r.preemptions[reason]++
	e.stop(r, e.now-r.started)
	if err := e.end(r, false); err != nil {
		return err
	}
	return e.retry(r)
}

func logger(ctx context.Context) logr.Logger { return ctrl.LoggerFrom(ctx) }

func objectMeta(namespace, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: namespace, Name: name}
}
