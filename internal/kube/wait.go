package kube

import (
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
)

// pollInterval is how often waits re-read an object: short, since each read is one GET.
const pollInterval = 250 * time.Millisecond

// WaitFor reads an object until done says so or ctx ends. It returns the last object read, so
// that a caller whose wait timed out can say what state the object was left in.
func (c *Client) WaitFor(ctx context.Context, k Kind, namespace, name string, done func(*unstructured.Unstructured) (bool, error)) (*unstructured.Unstructured, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	var last *unstructured.Unstructured
	err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		obj, err := c.resource(k, namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil && timedOut(ctx) {
			return false, context.DeadlineExceeded // the time ran out during this read: a timeout, not an API error
		}
		if err != nil {
			return false, describe(err, "get", k, namespace, name)
		}
		last = obj
		return done(obj)
	})
	return last, err
}

// timedOut reports whether ctx's time is up. It checks the deadline too: client-go's rate limiter
// refuses a request it cannot start before the deadline ("would exceed context deadline") before
// ctx itself reports the deadline exceeded.
func timedOut(ctx context.Context) bool {
	deadline, ok := ctx.Deadline()
	return ctx.Err() != nil || (ok && !time.Now().Before(deadline))
}

// List lists the objects of a kind; namespace "" lists all namespaces of a namespaced kind.
func (c *Client) List(ctx context.Context, k Kind, namespace string, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	out, err := c.dynamic.Resource(k.GVR).Namespace(namespace).List(ctx, opts)
	return out, describe(err, "list", k, namespace, "")
}

// Condition is one entry of an object's status.conditions.
type Condition struct {
	Type, Status, Reason, Message string
	ObservedGeneration            int64 // 0 when the controller does not record it
}

func (c Condition) String() string {
	var why []string
	for _, s := range []string{c.Reason, c.Message} {
		if s != "" {
			why = append(why, s)
		}
	}
	if len(why) == 0 {
		return c.Type + "=" + c.Status
	}
	return c.Type + "=" + c.Status + " (" + strings.Join(why, ": ") + ")"
}

// Conditions returns the object's status.conditions.
func Conditions(obj *unstructured.Unstructured) []Condition {
	raw, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	var out []Condition
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		s := func(key string) string { v, _ := m[key].(string); return v }
		gen, _ := m["observedGeneration"].(int64)
		out = append(out, Condition{Type: s("type"), Status: s("status"), Reason: s("reason"), Message: s("message"), ObservedGeneration: gen})
	}
	return out
}

// FindCondition returns the status condition of the given type, if the object has one.
func FindCondition(obj *unstructured.Unstructured, conditionType string) (Condition, bool) {
	for _, c := range Conditions(obj) {
		if c.Type == conditionType {
			return c, true
		}
	}
	return Condition{}, false
}

// NotReadyError is a wait for a condition that ended before the controller reported it True.
type NotReadyError struct {
	Condition string
	// Reported are the conditions the controller last reported; none when no controller did.
	Reported   []Condition
	Generation int64 // the object's, when last read
	cause      error
}

func (e *NotReadyError) Error() string {
	if len(e.Reported) == 0 {
		return fmt.Sprintf("no controller reported its %s condition (%v)", e.Condition, e.cause)
	}
	var parts []string
	for _, c := range e.Reported {
		if c.Status != string(metav1.ConditionTrue) || c.Type == e.Condition {
			s := c.String()
			if c.ObservedGeneration != 0 && c.ObservedGeneration < e.Generation {
				s += fmt.Sprintf(" for generation %d, not yet for the applied generation %d", c.ObservedGeneration, e.Generation)
			}
			parts = append(parts, s)
		}
	}
	return "the controller reports " + strings.Join(parts, "; ")
}

func (e *NotReadyError) Unwrap() error { return e.cause }

// WaitConditionTrue waits until the object's condition is True for the generation it has (when
// the condition records observedGeneration), and returns the object as last read. A wait that ctx
// ends returns a NotReadyError with what the controller last reported.
func (c *Client) WaitConditionTrue(ctx context.Context, k Kind, namespace, name, conditionType string) (*unstructured.Unstructured, error) {
	last, err := c.WaitFor(ctx, k, namespace, name, func(obj *unstructured.Unstructured) (bool, error) {
		cond, ok := FindCondition(obj, conditionType)
		current := cond.ObservedGeneration == 0 || cond.ObservedGeneration >= obj.GetGeneration()
		return ok && current && cond.Status == string(metav1.ConditionTrue), nil
	})
	if err == nil || !timedOut(ctx) {
		return last, err // ready, or an API error
	}
	e := &NotReadyError{Condition: conditionType, cause: err}
	if last != nil {
		e.Reported, e.Generation = Conditions(last), last.GetGeneration()
	}
	return last, e
}
