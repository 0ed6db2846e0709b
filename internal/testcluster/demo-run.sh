#!/usr/bin/env bash
# Submits one run of the research team's mig-experiment template to the demo's local control plane
# with the template's submit_manifest (MANIFEST, a Workflow for `kubectl create -f`), and follows it: Kueue
# admits it, Karpenter launches a node of the MIG pool (KWOK plays it), kube-scheduler binds the pod
# there, and the run succeeds. For the local control plane only (make demo runs it without
# KUBECONFIG, once Karpenter runs); it first removes the previous demo run.
#
#   demo-run.sh KUBECTL MANIFEST
set -euo pipefail
kubectl=$1 manifest=$2
ns=research label=mlplatform.io/demo-run
# KWOK ends the run's containers after this long (see internal/testcluster/kwok_stages.yaml).
run_for=20s

$kubectl -n $ns delete workflows.argoproj.io -l $label --ignore-not-found --wait >/dev/null
# The manifest as written, plus a label to find the run by and KWOK's run-for annotation; spec is
# its last key, so the lines appended belong to it.
run=$({
	sed "s|^metadata:|metadata:\n  labels: { $label: \"true\" }|" "$manifest"
	echo "  podMetadata: { annotations: { testcluster.mlplatform.io/run-for: $run_for } }"
} | $kubectl create -f - -o jsonpath='{.metadata.name}')

pod=
for _ in $(seq 180); do
	pod=$($kubectl -n $ns get pods -l workflows.argoproj.io/workflow=$run -o name)
	[ -n "$pod" ] && [ -n "$($kubectl -n $ns get "$pod" -o jsonpath='{.spec.nodeName}')" ] && break
	sleep 1
done
[ -n "$pod" ] && [ -n "$($kubectl -n $ns get "$pod" -o jsonpath='{.spec.nodeName}')" ] || {
	echo "the run's pod was not bound to a node in 3 minutes:" >&2
	$kubectl -n $ns get pods,workloads.kueue.x-k8s.io -o wide >&2
	exit 1
}

echo "Kueue admitted the run's Workload on the team's quota and gave its pod the flavor's node labels:"
$kubectl -n $ns get workloads.kueue.x-k8s.io -o custom-columns='WORKLOAD:.metadata.name,QUEUE:.spec.queueName,PRIORITY:.spec.priority,FLAVORS:.status.admission.podSetAssignments[0].flavors,ADMITTED:.status.conditions[?(@.type=="Admitted")].status'
echo
echo "Karpenter launched a node of the pool the flavor selects (KWOK plays it):"
$kubectl get nodes -o custom-columns='NODE:.metadata.name,INSTANCE-TYPE:.metadata.labels.node\.kubernetes\.io/instance-type,NODEPOOL:.metadata.labels.karpenter\.sh/nodepool,CAPACITY-TYPE:.metadata.labels.karpenter\.sh/capacity-type,MIG-CONFIG:.metadata.labels.nvidia\.com/mig\.config,MIG-1G.10GB:.status.allocatable.nvidia\.com/mig-1g\.10gb'
echo
echo "kube-scheduler bound the run's pod to it:"
$kubectl -n $ns get "$pod" -o custom-columns='POD:.metadata.name,PHASE:.status.phase,NODE:.spec.nodeName,NODE-SELECTOR:.spec.nodeSelector'
echo
for _ in $(seq 120); do
	phase=$($kubectl -n $ns get workflows.argoproj.io $run -o jsonpath='{.status.phase}')
	case $phase in Succeeded | Failed | Error) break ;; esac
	sleep 1
done
echo "The run, after $run_for of training:"
$kubectl -n $ns get workflows.argoproj.io $run -o custom-columns='WORKFLOW:.metadata.name,TEMPLATE:.spec.workflowTemplateRef.name,PHASE:.status.phase,STARTED:.status.startedAt,FINISHED:.status.finishedAt'
[ "$phase" = Succeeded ] || { echo "the run did not succeed: $phase" >&2; exit 1; }
echo "(Karpenter removes the empty node after the pool's consolidate_after, 10 minutes by the module's default.)"
