package framework

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Plan-time LocalQueue names between resources of one configuration: teams and LocalQueues
// declare the queues of a namespace, training templates name the one their runs go to. A name
// that is not declared but one or two letters away from a declared queue of the same namespace is
// a misspelling: its runs would wait forever. Each side records itself and checks what the other
// recorded, so whichever Terraform plans second reports it. A name far from every declared queue
// is left to the check before writing, which reads the cluster (the queue may belong to another
// configuration).

type plannedLocalQueues struct {
	mu       sync.Mutex
	declared map[string]map[string]bool   // namespace, then queue name
	used     map[string]map[string]string // namespace, then what, then the queue it names
}

// LocalQueueUse is a resource that names a LocalQueue that looks misspelled.
type LocalQueueUse struct{ What, Queue, Nearest string }

// DeclareLocalQueues records LocalQueues of namespace and returns the uses planned so far that
// look like misspellings of them, sorted by what.
func (p *ProviderData) DeclareLocalQueues(namespace string, names []string) (misspelled []LocalQueueUse) {
	lq := &p.localQueues
	lq.mu.Lock()
	defer lq.mu.Unlock()
	if lq.declared == nil {
		lq.declared = map[string]map[string]bool{}
	}
	if lq.declared[namespace] == nil {
		lq.declared[namespace] = map[string]bool{}
	}
	for _, n := range names {
		lq.declared[namespace][n] = true
	}
	for what, queue := range lq.used[namespace] {
		if nearest, ok := misspelling(lq.declared[namespace], queue); ok {
			misspelled = append(misspelled, LocalQueueUse{What: what, Queue: queue, Nearest: nearest})
		}
	}
	slices.SortFunc(misspelled, func(a, b LocalQueueUse) int { return cmp.Compare(a.What, b.What) })
	return misspelled
}

// UseLocalQueue records that what names LocalQueue queue of namespace and returns the declared
// queue it looks like a misspelling of, if any.
func (p *ProviderData) UseLocalQueue(namespace, queue, what string) (nearest string, misspelled bool) {
	lq := &p.localQueues
	lq.mu.Lock()
	defer lq.mu.Unlock()
	if lq.used == nil {
		lq.used = map[string]map[string]string{}
	}
	if lq.used[namespace] == nil {
		lq.used[namespace] = map[string]string{}
	}
	lq.used[namespace][what] = queue
	return misspelling(lq.declared[namespace], queue)
}

// misspelling returns the declared queue at most two edits from queue, when queue is not declared.
func misspelling(declared map[string]bool, queue string) (string, bool) {
	if declared[queue] {
		return "", false
	}
	best, bestDist := "", 3
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		if d := editDistance(queue, name); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// MisspelledQueueSummary and MisspelledQueueDetail word the refusal on either side.
const MisspelledQueueSummary = "LocalQueue name looks misspelled"

// MisspelledQueueDetail says what names which queue, and the declared one it resembles.
func MisspelledQueueDetail(namespace string, u LocalQueueUse) string {
	return fmt.Sprintf("Attribute queue of %s: LocalQueue %q is not declared in namespace %s, where this configuration "+
		"declares %q. Every run of the template would wait for a queue that does not exist. Correct the name, or refer "+
		"to the queue's resource (e.g. mlplatform_local_queue.x.name or an mlplatform_team's local_queue_names) so that "+
		"Terraform plans it first.", u.What, u.Queue, namespace, u.Nearest)
}
