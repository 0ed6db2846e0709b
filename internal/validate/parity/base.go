package parity

// BaseObjects are hand-written minimal objects that both the engine and the apiserver accept, one
// per kind the engine knows: each corpus object is one of them with one change. Namespaced ones get
// their namespace from the test. Names are fixed: a dry-run create stores nothing.
func BaseObjects() []map[string]any {
	obj := func(apiVersion, kind string, spec map[string]any) map[string]any {
		o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": "parity"}}
		if spec != nil {
			o["spec"] = spec
		}
		return o
	}
	requirement := map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4d.24xlarge"}}
	nodeClassRef := map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu"}
	selector := []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "gpu"}}}
	template := []any{map[string]any{"name": "train", "container": map[string]any{"image": "trainer:1"}}}
	return []map[string]any{
		obj("kueue.x-k8s.io/v1beta2", "ClusterQueue", map[string]any{
			"resourceGroups": []any{map[string]any{
				"coveredResources": []any{"nvidia.com/gpu"},
				"flavors": []any{map[string]any{
					"name":      "a100",
					"resources": []any{map[string]any{"name": "nvidia.com/gpu", "nominalQuota": int64(8)}},
				}},
			}},
		}),
		obj("kueue.x-k8s.io/v1beta2", "ResourceFlavor", map[string]any{}),
		obj("kueue.x-k8s.io/v1beta2", "LocalQueue", map[string]any{"clusterQueue": "team-a"}),
		obj("kueue.x-k8s.io/v1beta2", "Cohort", map[string]any{}),
		obj("kueue.x-k8s.io/v1beta2", "Topology", map[string]any{
			"levels": []any{map[string]any{"nodeLabel": "topology.kubernetes.io/zone"}},
		}),
		{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass", "metadata": map[string]any{"name": "parity"}, "value": int64(100)},
		obj("kueue.x-k8s.io/v1beta2", "AdmissionCheck", map[string]any{
			"controllerName": "kueue.x-k8s.io/provisioning-request",
			"parameters":     map[string]any{"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "parity"},
		}),
		obj("kueue.x-k8s.io/v1beta2", "ProvisioningRequestConfig", map[string]any{
			"provisioningClassName": "check-capacity.autoscaling.x-k8s.io",
			"managedResources":      []any{"nvidia.com/gpu"},
		}),
		obj("kueue.x-k8s.io/v1beta2", "MultiKueueConfig", map[string]any{
			"clusters":        []any{"worker-a", "worker-b"},
			"quotaManagement": "Manual",
		}),
		obj("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", map[string]any{"clusterSource": map[string]any{
			"kubeConfig": map[string]any{"locationType": "Secret", "location": "worker-a-kubeconfig"},
		}}),
		obj("karpenter.sh/v1", "NodePool", map[string]any{"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": nodeClassRef,
			"requirements": []any{requirement},
		}}}),
		obj("karpenter.sh/v1", "NodeClaim", map[string]any{
			"nodeClassRef": nodeClassRef,
			"requirements": []any{requirement},
		}),
		obj("karpenter.sh/v1alpha1", "NodeOverlay", map[string]any{
			"requirements":    []any{requirement},
			"priceAdjustment": "-10%",
		}),
		obj("karpenter.k8s.aws/v1", "EC2NodeClass", map[string]any{
			"role":                       "KarpenterNodeRole",
			"amiSelectorTerms":           []any{map[string]any{"alias": "al2023@latest"}},
			"subnetSelectorTerms":        selector,
			"securityGroupSelectorTerms": selector,
		}),
		obj("argoproj.io/v1alpha1", "WorkflowTemplate", map[string]any{"entrypoint": "train", "templates": template}),
		obj("argoproj.io/v1alpha1", "CronWorkflow", map[string]any{
			"schedules":    []any{"0 * * * *"},
			"workflowSpec": map[string]any{"entrypoint": "train", "templates": template},
		}),
		obj("monitoring.coreos.com/v1", "PrometheusRule", map[string]any{
			"groups": []any{map[string]any{"name": "gpu", "rules": []any{map[string]any{"alert": "GPUIdle", "expr": "up == 0"}}}},
		}),
	}
}
