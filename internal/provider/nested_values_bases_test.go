package provider_test

import "strconv"

// The configurations TestNestedNullAndUnknownValues mutates, as JSON: per type, bases that plan
// cleanly and together set every map, list and set attribute (several where attributes exclude
// each other). Labels and annotations are on every base, as every resource has them.

const meta = `"labels": {"team": "research"}, "annotations": {"note": "x"}`

var nestedBases = map[string][]string{
	"mlplatform_resource_flavor": {`{"name": "flavor", ` + meta + `,
		"node_labels": {"mlplatform.io/gpu": "a100-sxm4-80gb"},
		"node_taints": [{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}],
		"tolerations": [{"key": "spot", "operator": "Exists", "effect": "NoSchedule"}],
		"topology_name": "aws"}`},
	"mlplatform_cluster_queue": {`{"name": "queue", "cohort": "training", "wait_for_active": false, ` + meta + `,
		"namespace_selector": {"match_labels": {"team": "a"}, "match_expressions": [{"key": "tier", "operator": "In", "values": ["gold"]}]},
		"admission_checks_strategy": [{"name": "prov", "on_flavors": ["flavor"]}],
		"preemption": {"within_cluster_queue": "LowerPriority", "reclaim_within_cohort": "Any", "borrow_within_cohort": {"policy": "LowerPriority", "max_priority_threshold": 10}},
		"flavor_fungibility": {"when_can_borrow": "MayStopSearch"},
		"resource_group": [{"covered_resources": ["cpu"], "flavor": [{"name": "flavor", "resource": [{"name": "cpu", "nominal_quota": "1", "borrowing_limit": "1"}]}]}]}`},
	"mlplatform_cohort": {`{"name": "cohort", ` + meta + `,
		"resource_group": [{"covered_resources": ["cpu"], "flavor": [{"name": "flavor", "resource": [{"name": "cpu", "nominal_quota": "1"}]}]}]}`},
	"mlplatform_local_queue":             {`{"namespace": "team", "name": "training", "cluster_queue": "queue", ` + meta + `}`},
	"mlplatform_workload_priority_class": {`{"name": "production", "value": 1000, ` + meta + `}`},
	"mlplatform_topology":                {`{"name": "aws", "levels": ["topology.k8s.aws/network-node-layer-1", "kubernetes.io/hostname"], ` + meta + `}`},
	"mlplatform_admission_check": {`{"name": "prov", "controller_name": "kueue.x-k8s.io/provisioning-request", ` + meta + `,
		"parameters": {"api_group": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "prov"}}`},
	"mlplatform_multikueue_config": {`{"name": "workers", "clusters": ["worker-a", "worker-b"], ` + meta + `}`},
	"mlplatform_multikueue_cluster": {
		`{"name": "worker-a", "kubeconfig": ` + strconv.Quote(testKubeconfig) + `, ` + meta + `}`,
		`{"name": "worker-b", "kubeconfig_secret": "worker-b", "kueue_namespace": "kueue", ` + meta + `}`},
	"mlplatform_provisioning_request_config": {`{"name": "prov", "provisioning_class_name": "check-capacity.autoscaling.x-k8s.io", ` + meta + `,
		"parameters": {"max-run-duration": "3600"}, "managed_resources": ["nvidia.com/gpu"],
		"retry_strategy": {"backoff_limit_count": 2}, "pod_set_merge_policy": "IdenticalPodTemplates",
		"pod_set_updates": {"node_selector": [{"key": "cloud.google.com/gke-nodepool", "value_from_provisioning_class_detail": "nodepool"}]}}`},
	"mlplatform_node_class": {
		`{"name": "gpu", "role": "KarpenterNodeRole-training", ` + meta + `,
		"ami_selector": [{"alias": "al2023@latest"}],
		"subnet_selector": [{"tags": {"karpenter.sh/discovery": "training"}}],
		"security_group_selector": [{"tags": {"karpenter.sh/discovery": "training"}}],
		"capacity_reservation_selector": [{"tags": {"purpose": "training"}}],
		"network_interfaces": [{"network_card_index": 0, "device_index": 0, "interface_type": "interface"}],
		"block_device": [{"device_name": "/dev/xvda", "root_volume": true, "volume_size": "500Gi", "volume_type": "gp3"}],
		"kubelet": {"max_pods": 110, "system_reserved": {"cpu": "100m"}, "kube_reserved": {"memory": "1Gi"},
			"eviction_hard": {"memory.available": "5%"}, "eviction_soft": {"memory.available": "10%"},
			"eviction_soft_grace_period": {"memory.available": "1m30s"}, "cluster_dns": ["10.0.0.10"]},
		"metadata_options": {"http_tokens": "required"},
		"node_config": {"cpu_manager_policy": "static"},
		"tags": {"owner": "ml"}, "billing": {"team": "ml-platform"}}`,
		`{"name": "gpu", "instance_profile": "KarpenterNodeInstanceProfile", "ami_family": "AL2023",
		"ami_selector": [{"tags": {"Name": "gpu-ami"}, "owner": "self"}],
		"subnet_selector": [{"id": "subnet-123"}],
		"security_group_selector": [{"id": "sg-123"}]}`,
	},
	"mlplatform_gpu_node_pool": {
		`{"name": "a100", "node_class": "gpu", ` + meta + `,
		"gpu": {"model": "a100-80gb", "instance_types": ["p4de.24xlarge"]},
		"mig": {"strategy": "mixed", "profiles": {"1g.10gb": 7}},
		"on_demand": {"max_gpus": 16}, "spot": {"max_gpus": 8, "discount": 0.6},
		"disruption": {"budgets": [{"nodes": "10%"}]},
		"taints": [{"key": "team", "value": "a", "effect": "NoSchedule"}],
		"node_labels": {"tier": "gold"}, "billing": {"project": "fine-tuning"}}`,
		`{"name": "a100", "node_class": "gpu",
		"gpu": {"model": "a100-80gb", "instance_types": ["p4de.24xlarge"]},
		"mig": {"strategy": "mixed", "parts": [{"devices": [0, 1, 2, 3], "profiles": {"3g.40gb": 2}}, {"devices": [4, 5, 6, 7], "config": "all-disabled"}]},
		"on_demand": {"max_gpus": 16}}`,
		`{"name": "l40s", "node_class": "gpu",
		"gpu": {"model": "l40s", "instance_requirements": {"families": ["g6e"], "gpu_counts": [4]}},
		"time_slicing": {"replicas": 4}, "spot": {"max_gpus": 16, "discount": 0.6}}`,
	},
	"mlplatform_mig_config": {`{` + meta + `, "mig_configs": {"half": {"entries": [
		{"gpu": "a100-80gb", "devices": [0, 1, 2, 3], "mig_enabled": true, "mig_devices": {"3g.40gb": 2}},
		{"gpu": "a100-80gb", "devices": [4, 5, 6, 7], "mig_enabled": false}]}}}`},
	"mlplatform_time_slicing_config": {`{"name": "time-slicing-config", ` + meta + `, "configs": {
		"any": {"resources": [{"name": "nvidia.com/gpu", "replicas": 4}]},
		"driver": {"plugin": {"device_list_strategy": ["cdi-cri"]}}}}`},
	"mlplatform_training_job_template": {`{"namespace": "team", "name": "train", ` + meta + `,
		"image": "ghcr.io/acme/trainer:1", "command": ["python", "-m", "train"], "args": ["--epochs=3"],
		"env": {"HF_HOME": "/cache"}, "hyperparameters": {"lr": "3e-4"}, "billing": {"billing.mlplatform.io/team": "nlp"},
		"hardware": {"gpu_type": "a100-80gb", "gpu_count": 1, "cpu_cores": 8, "memory_gb": 64},
		"source": {"git_repo": "git@github.com:acme/models.git", "ssh_private_key_secret": {"name": "key", "key": "ssh-privatekey"}},
		"checkpoint": {"uri": "s3://b/c"}, "retry": {"limit": 3, "backoff": "30s"},
		"tracking": {"uri": "http://mlflow:5000", "experiment": "e"},
		"volumes": [{"claim_name": "data", "mount_path": "/data"}]}`},
	"mlplatform_training_schedule": {`{"namespace": "team", "name": "nightly", "template": "train", ` + meta + `,
		"schedules": ["0 2 * * 1-5"], "timezone": "Europe/Berlin", "parameters": {"dataset_version": "latest"}}`},
	"mlplatform_team": {`{"name": "nlp", "cost_centre": "cc-4102", ` + meta + `,
		"local_queues": {"training": "queue"}, "member_groups": ["nlp-engineers"], "member_users": ["ada"],
		"kueue_namespace_labels": {"kueue.x-k8s.io/managed": "true"}}`},
	"mlplatform_gpu_billing_rules": {`{"name": "gpu-billing", ` + meta + `,
		"admission_wait_slo_per_queue": {"research": "2h"}, "alert_labels": {"severity": "warning"},
		"pools": {"a100": {"spot": {
			"node_labels": {"mlplatform.io/gpu": "a100", "karpenter.sh/capacity-type": "spot", "karpenter.sh/nodepool": "a100-spot"},
			"per_gpu": {"nvidia.com/gpu": 1}, "hourly_price": {"nvidia.com/gpu": 1.5}}}}}`},
	"mlplatform_gpu_dashboard": {`{"namespace": "monitoring", ` + meta + `}`},
}

var nestedDataBases = map[string][]string{
	"mlplatform_cluster_queue":       {`{"name": "queue"}`},
	"mlplatform_gpu":                 {`{"name": "a100-80gb"}`},
	"mlplatform_mig_layout":          {`{"gpu": "a100-80gb", "profiles": {"4g.40gb": 1, "2g.20gb": 1, "1g.10gb": 1}}`},
	"mlplatform_capacity_simulation": {simulationBase(`"jobs_per_day": 4, "daily_shape": [1, 2]`), simulationBase(`"arrivals": ["0s", "1h"]`)},
	"mlplatform_preflight": {`{"kueue": {"configuration": "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n", "namespace": "kueue-system"},
		"karpenter": {"values": "{settings: {featureGates: {nodeOverlay: true}}}"}, "gpu_operator": {"values": "{dcgmExporter: {enabled: true}}"}}`},
}

// simulationBase is a day of one team on one flavor, its arrivals given by arrivals.
func simulationBase(arrivals string) string {
	return `{"horizon": "4h", "interval": "1h",
		"flavors": [{"name": "a100", "node_labels": {"mlplatform.io/gpu": "a100-sxm4-80gb"}, "price_per_hour": {"nvidia.com/gpu": 4}, "units_per_gpu": {"nvidia.com/gpu": 1}}],
		"cluster_queues": [{"name": "q", "preemption": {"within_cluster_queue": "LowerPriority"},
			"flavors": [{"name": "a100", "resources": {"nvidia.com/gpu": {"nominal_quota": "8"}}}]}],
		"local_queues": [{"namespace": "team", "name": "training", "cluster_queue": "q"}],
		"priority_classes": {"low": 100},
		"profiles": [{"team": "team", "local_queue": "training", ` + arrivals + `,
			"shapes": [{"gpu_type": "a100-80gb", "gpus": 2}], "duration": {"distribution": "fixed", "mean": "1h"},
			"priorities": {"low": 1}}]}`
}

// providerBases are the provider configurations mutated, pointing at host.
func providerBases(host string) []string {
	return []string{
		`{"host": "` + host + `", "default_labels": {"billing.mlplatform.io/cost-centre": "cc-1"},
		"exec": [{"api_version": "client.authentication.k8s.io/v1", "command": "aws", "args": ["eks", "get-token"], "env": {"AWS_PROFILE": "ml"}}]}`,
		`{"config_paths": ["/nonexistent/kubeconfig"]}`,
	}
}

// testKubeconfig is a kubeconfig Kueue's MultiKueue accepts: CA as data and a token.
const testKubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: w, cluster: {server: "https://10.0.0.1:6443", certificate-authority-data: Y2E=}}]
users: [{name: w, user: {token: t}}]
contexts: [{name: w, context: {cluster: w, user: w}}]
current-context: w
`
