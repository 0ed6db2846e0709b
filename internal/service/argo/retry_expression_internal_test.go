package argo

import (
	"testing"

	"github.com/argoproj/argo-workflows/v3/util/expr/argoexpr"
	"github.com/argoproj/argo-workflows/v3/util/expr/env"
)

// The retry expression, evaluated by Argo's own evaluator on the scope Argo builds (flat dotted
// keys expanded by env.GetFuncMap, as buildRetryStrategyLocalScope and retryStrategy do), against
// the exact messages Argo and the kubelet write.
func TestRetryExpression(t *testing.T) {
	if err := compileRetryExpression(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, status, exitCode, message string
		retry                           bool
	}{
		{"Kueue preemption or drain: pod deleted", "Error", "-1", "pod deleted", true},
		{"spot reclaim: kubelet node shutdown", "Failed", "-1", "Pod was terminated in response to imminent node shutdown.", true},
		{"kubelet eviction", "Failed", "-1", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ", true},
		{"SIGKILL from outside", "Failed", "137", "main: Error (exit code 137)", true},
		{"SIGTERM from outside", "Failed", "143", "main: Error (exit code 143)", true},
		{"bug: exit 1", "Failed", "1", "main: Error (exit code 1)", false},
		{"exit 2", "Failed", "2", "main: Error (exit code 2)", false},
		{"out of memory", "Failed", "137", "main: OOMKilled (exit code 137)", false},
		{"out of memory with message", "Failed", "137", "main: OOMKilled (exit code 137): killed", false},
		{"image pull", "Error", "-1", "Pod failed before main container starts due to ErrImagePull: not found", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scope := env.GetFuncMap(map[string]any{
				"retries":            "0",
				"lastRetry.status":   tc.status,
				"lastRetry.exitCode": tc.exitCode,
				"lastRetry.message":  tc.message,
				"lastRetry.duration": "12.5",
			})
			got, err := argoexpr.EvalBool(retryExpression, scope)
			if err != nil {
				t.Fatalf("Argo cannot evaluate %q: %v", retryExpression, err)
			}
			if got != tc.retry {
				t.Errorf("retry = %v for %q (exit %s); want %v", got, tc.message, tc.exitCode, tc.retry)
			}
		})
	}
}
