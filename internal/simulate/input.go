// Package simulate runs a day of training jobs through Kueue's own scheduler, cache and queue
// manager, in process, on a virtual clock: the declared queues decide admission, borrowing and
// preemption exactly as the pinned Kueue would. What Kueue does not decide (node start, spot
// interruptions, what a preemption costs a run that does not checkpoint) is this package's own
// model, listed in Caveats.
package simulate

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	config "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Input is what a run simulates: the queues' objects as the API server would store them
// (defaulted), the price of what the flavors supply, and the jobs.
type Input struct {
	Flavors         []kueue.ResourceFlavor
	Cohorts         []kueue.Cohort
	ClusterQueues   []kueue.ClusterQueue
	LocalQueues     []kueue.LocalQueue
	PriorityClasses []kueue.WorkloadPriorityClass
	// FairSharing is Kueue's Configuration fairSharing (nil: off, Kueue's default).
	FairSharing *config.FairSharing
	// Flavor says what a flavor's nodes cost and take to start, by flavor name.
	Flavor map[string]FlavorModel
	Jobs   []Job
	// Horizon ends the run: jobs still waiting or running then are reported as such.
	Horizon time.Duration
	// Interval is the timeline's step.
	Interval time.Duration
	// Seed draws the spot interruptions.
	Seed uint64
}

// FlavorModel is what Kueue does not know of a flavor.
type FlavorModel struct {
	// Price is USD per hour of one unit of each resource (e.g. one nvidia.com/gpu).
	Price map[corev1.ResourceName]float64
	// UnitsPerGPU is how many of a resource one GPU gives (7 nvidia.com/mig-1g.10gb of an
	// A100-80GB); 1 when absent.
	UnitsPerGPU map[corev1.ResourceName]float64
	// Spot: the flavor's nodes are spot capacity, which jobs lose at their
	// SpotInterruptionsPerHour.
	Spot bool
}

// Job is one training run as Kueue sees it: one Workload of Pods pods.
type Job struct {
	Name, Namespace, Queue string
	// Team reports the job under; the namespace when empty.
	Team          string
	PriorityClass string
	Arrival       time.Duration
	// Work is how long the run computes once its node is up.
	Work         time.Duration
	Pods         int32
	Requests     corev1.ResourceList
	NodeSelector map[string]string
	// Checkpoint: a run that is preempted or interrupted resumes where it was; otherwise it
	// starts over.
	Checkpoint bool
	// NodeStart is how long a run waits, once admitted, for its node before it does any work.
	NodeStart time.Duration
	// SpotInterruptionsPerHour is how often a run on a spot flavor loses its node: its pod is
	// gone and Argo's retry queues a new one.
	SpotInterruptionsPerHour float64
}

func (j *Job) team() string {
	if j.Team != "" {
		return j.Team
	}
	return j.Namespace
}
