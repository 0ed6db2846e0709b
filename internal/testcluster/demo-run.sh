#!/usr/bin/env bash
# Submits one run of the research team's mig-experiment template to the demo's local control plane,
# as `argo submit --from workflowtemplate/mig-experiment -n research` would, and shows what Kueue
# did with its pod. For the local control plane only (make demo runs it without KUBECONFIG): it
# first removes the previous demo run, its pod (no kubelet ends it there) and the namespace's
# Workloads.
#
#   demo-run.sh KUBECTL
set -euo pipefail
kubectl=$1
ns=research run=demo-run

$kubectl -n $ns delete workflows.argoproj.io $run --ignore-not-found >/dev/null
$kubectl -n $ns delete pods -l workflows.argoproj.io/workflow=$run --grace-period=0 --force >/dev/null 2>&1 || true
$kubectl -n $ns delete workloads.kueue.x-k8s.io --all >/dev/null
$kubectl create -f - >/dev/null <<YAML
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: { name: $run, namespace: $ns }
spec: { workflowTemplateRef: { name: mig-experiment } }
YAML

pod=
for _ in $(seq 60); do
	pod=$($kubectl -n $ns get pods -l workflows.argoproj.io/workflow=$run -o name)
	[ -n "$pod" ] && [ -z "$($kubectl -n $ns get "$pod" -o jsonpath='{.spec.schedulingGates}')" ] && break
	sleep 1
done
[ -n "$pod" ] || { echo "Argo created no pod for Workflow $ns/$run in 60s: is its workflow controller running? (make demo-down; make demo restarts the local control plane with it)" >&2; exit 1; }

echo "Kueue gated the pod when Argo created it, admitted its Workload on the team's quota, then removed"
echo "the gate and added the flavor's node labels (no node runs here, so the pod stays Pending):"
$kubectl -n $ns get "$pod" -o custom-columns='POD:.metadata.name,PHASE:.status.phase,GATES:.spec.schedulingGates[*].name,QUEUE:.metadata.labels.kueue\.x-k8s\.io/queue-name,NODE-SELECTOR:.spec.nodeSelector'
$kubectl -n $ns get workloads.kueue.x-k8s.io -o custom-columns='WORKLOAD:.metadata.name,QUEUE:.spec.queueName,PRIORITY:.spec.priority,FLAVORS:.status.admission.podSetAssignments[0].flavors,ADMITTED:.status.conditions[?(@.type=="Admitted")].status'
