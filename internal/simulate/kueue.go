package simulate

import (
	"context"
	"sync"
	_ "unsafe" // go:linkname, for one scheduling cycle

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	testingclock "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	"sigs.k8s.io/kueue/pkg/metrics"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/expectations"
	"sigs.k8s.io/kueue/pkg/util/routine"
	"sigs.k8s.io/kueue/pkg/util/wait"
)

// scheduleCycle is one cycle of Kueue's scheduler: what its Start loops over, without the loop's
// real-time backoff, so that the simulator decides when the next cycle runs on its own clock.
// Kueue's own tests call it the same way (scheduler_test.go).
//
//go:linkname scheduleCycle sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).schedule
func scheduleCycle(s *scheduler.Scheduler, ctx context.Context) wait.SpeedSignal

// kueueGlobals serialises runs: Kueue keeps feature gates, metrics and the admission routine
// wrapper in package variables.
var kueueGlobals sync.Mutex

// inline runs the scheduler's admission writes in the cycle instead of in a goroutine, so that a
// cycle's decisions are all written when it returns.
type inline struct{}

func (inline) Run(f func()) { f() }

// kueueInstance is Kueue's scheduler, cache, queue manager and workload event handlers over a
// fake API server, on the simulator's clock. written collects the Workloads a cycle wrote.
type kueueInstance struct {
	client        client.Client
	cache         *schdcache.Cache
	queues        *qcache.Manager
	requeuer      interface{ ProcessRequeues(context.Context) int }
	scheduler     *scheduler.Scheduler
	workloads     *core.WorkloadReconciler
	written       map[types.NamespacedName]bool
	clusterQueues map[kueue.ClusterQueueReference]*qcache.ClusterQueue
	namespaces    map[string]*corev1.Namespace
}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(kueue.AddToScheme(s))
	return s
}

// newKueue builds the instance; the caller holds kueueGlobals.
func newKueue(ctx context.Context, clk *testingclock.FakeClock, in *Input) (*kueueInstance, error) {
	k := &kueueInstance{
		written:       map[types.NamespacedName]bool{},
		clusterQueues: map[kueue.ClusterQueueReference]*qcache.ClusterQueue{},
		namespaces:    namespaces(in),
	}
	record := func(obj client.Object) {
		if _, ok := obj.(*kueue.Workload); ok {
			k.written[client.ObjectKeyFromObject(obj)] = true
		}
	}
	scheme := newScheme()
	// The plain tracker: the default one manages fields and builds a REST mapper of every type
	// on each write, which would be most of a run's time; nothing here reads managed fields.
	tracker := clienttesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	k.client = fake.NewClientBuilder().WithScheme(scheme).WithObjectTracker(tracker).
		WithIndex(&kueue.LocalQueue{}, indexer.QueueClusterQueueKey, indexer.IndexQueueClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadQueueKey, indexer.IndexWorkloadQueue).
		WithIndex(&kueue.Workload{}, indexer.WorkloadClusterQueueKey, indexer.IndexWorkloadClusterQueue).
		WithIndex(&kueue.Workload{}, indexer.OwnerReferenceUID, indexer.IndexOwnerUID).
		WithStatusSubresource(&kueue.Workload{}).
		WithObjects(objects(k.namespaces)...).
		WithInterceptorFuncs(interceptor.Funcs{
			Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
				// Kueue reads a workload's namespace each time it retries it; namespaces do not
				// change during a run, and the fake client's JSON copy of each read was a third of
				// a busy day's time.
				if ns, ok := obj.(*corev1.Namespace); ok && k.namespaces[key.Name] != nil {
					k.namespaces[key.Name].DeepCopyInto(ns)
					return nil
				}
				return c.Get(ctx, key, obj, opts...)
			},
			Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
				record(obj)
				return c.Patch(ctx, obj, asMergePatch(patch), withoutForce(opts)...)
			},
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
				record(obj)
				return c.SubResource(sub).Patch(ctx, obj, asMergePatch(patch), withoutForceSub(opts)...)
			},
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				record(obj)
				return c.Update(ctx, obj, opts...)
			},
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				record(obj)
				return c.SubResource(sub).Update(ctx, obj, opts...)
			},
		}).Build()

	recorder := &events.FakeRecorder{} // no channel: drops the events, nobody reads them
	store := expectations.NewStore("preemption")
	// No LocalQueue metrics: they decide nothing, and counting a queue's pending workloads on each
	// requeue walks its heap.
	noQueueMetrics := &metrics.LocalQueueMetricsConfig{}
	k.cache = schdcache.New(k.client, schdcache.WithLocalQueueMetrics(noQueueMetrics))
	queues, requeuer := qcache.NewManagerForUnitTestsWithRequeuer(k.client, k.cache,
		qcache.WithClock(clk), qcache.WithPreemptionExpectations(store), qcache.WithLocalQueueMetrics(noQueueMetrics))
	k.queues, k.requeuer = queues, requeuer
	k.workloads = core.NewWorkloadReconciler(k.client, k.queues, k.cache, recorder, core.WithPreemptionExpectations(store))

	saved := routine.DefaultWrapper
	routine.DefaultWrapper = inline{}
	k.scheduler = scheduler.New(k.queues, k.cache, k.client, recorder,
		scheduler.WithClock(nil, clk), scheduler.WithPreemptionExpectations(store), scheduler.WithFairSharing(in.FairSharing))
	routine.DefaultWrapper = saved

	log := logger(ctx)
	for i := range in.Flavors {
		k.cache.AddOrUpdateResourceFlavor(log, in.Flavors[i].DeepCopy())
	}
	for i := range in.Cohorts {
		c := in.Cohorts[i].DeepCopy()
		if err := k.cache.AddOrUpdateCohort(c); err != nil {
			return nil, err
		}
		k.queues.AddOrUpdateCohort(ctx, c)
	}
	for i := range in.PriorityClasses {
		if err := k.client.Create(ctx, in.PriorityClasses[i].DeepCopy()); err != nil {
			return nil, err
		}
	}
	for i := range in.ClusterQueues {
		cq := in.ClusterQueues[i].DeepCopy()
		if err := k.client.Create(ctx, cq); err != nil {
			return nil, err
		}
		if err := k.cache.AddClusterQueue(ctx, cq); err != nil {
			return nil, err
		}
		if err := k.queues.AddClusterQueue(ctx, cq); err != nil {
			return nil, err
		}
	}
	for i := range in.LocalQueues {
		lq := in.LocalQueues[i].DeepCopy()
		if err := k.client.Create(ctx, lq); err != nil {
			return nil, err
		}
		if err := k.cache.AddLocalQueue(lq); err != nil {
			return nil, err
		}
		if err := k.queues.AddLocalQueue(ctx, lq); err != nil {
			return nil, err
		}
		probe := &kueue.Workload{ObjectMeta: objectMeta(lq.Namespace, "probe"), Spec: kueue.WorkloadSpec{QueueName: kueue.LocalQueueName(lq.Name)}}
		if cq := k.queues.ClusterQueueForWorkloadWithoutLock(probe); cq != nil {
			k.clusterQueues[lq.Spec.ClusterQueue] = cq
		}
	}
	k.requeuer.ProcessRequeues(ctx)
	return k, nil
}

// activePending is how many workloads wait in the queues' heaps (not set aside as inadmissible)
// and how many are set aside: a cycle with no heads would block in the queue manager.
func (k *kueueInstance) activePending() (active, inadmissible int) {
	for _, cq := range k.clusterQueues {
		a, i := cq.Pending()
		active += a
		inadmissible += i
	}
	return active, inadmissible
}

// namespaces are the LocalQueues' namespaces, by name.
func namespaces(in *Input) map[string]*corev1.Namespace {
	out := map[string]*corev1.Namespace{}
	for _, lq := range in.LocalQueues {
		if out[lq.Namespace] == nil {
			out[lq.Namespace] = &corev1.Namespace{ObjectMeta: objectMeta("", lq.Namespace)}
		}
	}
	return out
}

func objects(namespaces map[string]*corev1.Namespace) []client.Object {
	out := make([]client.Object, 0, len(namespaces))
	for _, ns := range namespaces {
		out = append(out, ns.DeepCopy())
	}
	return out
}

// strategicPatch sends a server-side apply patch as a strategic merge patch: the fake API server
// applies one by building a REST mapper of every known type per call, which would be most of a
// run's time. Kueue's writes set the fields they own, and its types carry the merge keys (e.g.
// conditions by type), so the merged object is the one apply would give.
type strategicPatch struct{ client.Patch }

func (strategicPatch) Type() types.PatchType { return types.StrategicMergePatchType }

func asMergePatch(p client.Patch) client.Patch {
	if p.Type() == types.ApplyPatchType {
		return strategicPatch{p}
	}
	return p
}

// withoutForce drops ForceOwnership, which only an apply patch takes.
func withoutForce(opts []client.PatchOption) []client.PatchOption {
	out := opts[:0:0]
	for _, o := range opts {
		if o != client.ForceOwnership {
			out = append(out, o)
		}
	}
	return out
}

func withoutForceSub(opts []client.SubResourcePatchOption) []client.SubResourcePatchOption {
	out := opts[:0:0]
	for _, o := range opts {
		if o != client.ForceOwnership {
			out = append(out, o)
		}
	}
	return out
}
