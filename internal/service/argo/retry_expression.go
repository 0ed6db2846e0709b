package argo

import (
	"fmt"

	"github.com/expr-lang/expr"
)

// The messages an interrupted training pod leaves in its Argo node, which Argo exposes to a
// retryStrategy expression as lastRetry.message (workflow/controller/operator.go,
// buildRetryStrategyLocalScope; lastRetry.exitCode is a string there, "-1" when unknown):
//   - "pod deleted": Argo's own message when a pod it was waiting for is gone (Kueue preempting
//     it, a node drain, `kubectl delete pod`);
//   - the pod's status message, which inferFailedReason takes first when the kubelet set one:
//     "Pod was terminated in response to imminent node shutdown." (kubelet nodeshutdown, a spot
//     reclaim) and "The node was low on resource: ..." (kubelet eviction);
//   - otherwise "<container>: <reason> (exit code <n>)", where reason is "OOMKilled" when the
//     kernel killed the trainer for memory and "Error" for a SIGKILL or SIGTERM from outside.
const (
	msgPodDeleted   = "pod deleted"
	msgNodeShutdown = "imminent node shutdown"
	msgNodeLow      = "The node was low on resource"
)

// retryExpression retries interruptions only: exit 1 (a bug) and OOMKilled (the same pod would
// run out of memory again) are final.
var retryExpression = fmt.Sprintf(`lastRetry.message == %q || lastRetry.message contains %q || `+
	`lastRetry.message startsWith %q || `+
	`(lastRetry.exitCode in ["137", "143"] && !(lastRetry.message contains "OOMKilled"))`,
	msgPodDeleted, msgNodeShutdown, msgNodeLow)

// retryScope is the shape of what Argo passes to the expression: strings under lastRetry.
func retryScope(status, exitCode, message string) map[string]any {
	return map[string]any{
		"retries": "0",
		"lastRetry": map[string]any{
			"status": status, "exitCode": exitCode, "message": message, "duration": "0",
		},
	}
}

// compileRetryExpression compiles the expression against Argo's scope, as Argo does before
// running it, so that a mistake in it is a plan error rather than a run that never retries.
func compileRetryExpression() error {
	if _, err := expr.Compile(retryExpression, expr.Env(retryScope("", "", "")), expr.AsBool()); err != nil {
		return fmt.Errorf("compiling the retry expression %q: %w", retryExpression, err)
	}
	return nil
}
