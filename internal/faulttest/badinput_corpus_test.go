package faulttest

import (
	"fmt"
	"strings"
)

// The bad-input corpus: for every resource type the provider serves (checkCorpusTypes compares
// bases with the provider's types), a configuration that plans (base) and mutations of it that
// must each be refused at plan with an error pointing at the attribute (pointsAt).

// part is one top-level argument or block of a resource body, by the name it sets.
type part struct{ key, hcl string }

// bases are a valid, minimal body of each resource type, none calling the API at plan.
var bases = map[string][]part{
	"mlplatform_resource_flavor": {{"name", `name = "flavor"`}},
	"mlplatform_cluster_queue": {
		{"name", `name = "queue"`},
		{"wait_for_active", `wait_for_active = false`},
		{"resource_group", `resource_group {
    covered_resources = ["cpu"]
    flavor {
      name = "flavor"
      resource {
        name          = "cpu"
        nominal_quota = "1"
      }
    }
  }`},
	},
	"mlplatform_cohort":                  {{"name", `name = "cohort"`}},
	"mlplatform_local_queue":             {{"namespace", `namespace = "team"`}, {"name", `name = "training"`}, {"cluster_queue", `cluster_queue = "queue"`}},
	"mlplatform_workload_priority_class": {{"name", `name = "production"`}, {"value", `value = 1000`}},
	"mlplatform_topology": {
		{"name", `name = "aws"`},
		{"levels", `levels = ["topology.k8s.aws/network-node-layer-1", "kubernetes.io/hostname"]`},
	},
	"mlplatform_admission_check": {
		{"name", `name = "prov"`},
		{"controller_name", `controller_name = "kueue.x-k8s.io/provisioning-request"`},
		{"parameters", `parameters = { api_group = "kueue.x-k8s.io", kind = "ProvisioningRequestConfig", name = "prov" }`},
	},
	"mlplatform_multikueue_config":  {{"name", `name = "workers"`}, {"clusters", `clusters = ["worker-a"]`}},
	"mlplatform_multikueue_cluster": {{"name", `name = "worker-a"`}, {"kubeconfig_secret", `kubeconfig_secret = "worker-a-kubeconfig"`}},
	"mlplatform_provisioning_request_config": {
		{"name", `name = "prov"`},
		{"provisioning_class_name", `provisioning_class_name = "check-capacity.autoscaling.x-k8s.io"`},
	},
	"mlplatform_node_class": {
		{"name", `name = "gpu"`},
		{"role", `role = "KarpenterNodeRole-training"`},
		{"ami_selector", `ami_selector = [{ alias = "al2023@latest" }]`},
		{"subnet_selector", `subnet_selector = [{ tags = { "karpenter.sh/discovery" = "training" } }]`},
		{"security_group_selector", `security_group_selector = [{ tags = { "karpenter.sh/discovery" = "training" } }]`},
	},
	"mlplatform_gpu_node_pool": {
		{"name", `name = "a100"`},
		{"node_class", `node_class = "gpu"`},
		{"gpu", `gpu = { model = "a100-80gb" }`},
		{"on_demand", `on_demand = { max_gpus = 16 }`},
	},
	"mlplatform_mig_config":          {{"mig_configs", `mig_configs = { "all-disabled" = { entries = [{ mig_enabled = false }] } }`}},
	"mlplatform_time_slicing_config": {{"name", `name = "time-slicing-config"`}, {"configs", `configs = { any = { resources = [{ name = "nvidia.com/gpu", replicas = 4 }] } }`}},
	"mlplatform_training_job_template": {
		{"namespace", `namespace = "team"`},
		{"name", `name = "train"`},
		{"image", `image = "ghcr.io/acme/trainer:1"`},
		{"training_script", `training_script = "train.py"`},
		{"hardware", `hardware = { gpu_type = "a100-1g.10gb", cpu_cores = 2, memory_gb = 16 }`},
	},
	"mlplatform_training_schedule": {
		{"namespace", `namespace = "team"`},
		{"name", `name = "nightly"`},
		{"template", `template = "train"`},
		{"schedules", `schedules = ["0 2 * * 1-5"]`},
		{"timezone", `timezone = "Europe/Berlin"`},
	},
	"mlplatform_team": {{"name", `name = "nlp"`}},
	"mlplatform_gpu_billing_rules": {
		{"name", `name = "gpu-billing"`},
		{"pools", `pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = "a100", "karpenter.sh/capacity-type" = "spot", "karpenter.sh/nodepool" = "a100-spot" }
    per_gpu      = { "nvidia.com/gpu" = 1 }
    hourly_price = { "nvidia.com/gpu" = 1.5 }
  } } }`},
	},
	"mlplatform_gpu_dashboard": {{"namespace", `namespace = "monitoring"`}},
}

// badCase is a base with some parts replaced (or added): attr is the attribute path, as the
// plugin framework writes it, that the error must point at.
type badCase struct {
	resource string
	what     string
	set      []part
	attr     string
}

func bad(resource, what, attr string, set ...part) badCase {
	return badCase{resource: resource, what: what, set: set, attr: attr}
}

// metadataCases are refused for every resource type: its name and the keys and values of its
// labels and annotations.
func metadataCases() []badCase {
	var cases []badCase
	for resource := range bases {
		cases = append(cases,
			bad(resource, "name with upper case and '_'", "name", part{"name", `name = "Bad_Name"`}),
			bad(resource, "label key with a space", `labels["bad key"]`, part{"labels", `labels = { "bad key" = "x" }`}),
			bad(resource, "label value with a '/'", `labels["team"]`, part{"labels", `labels = { team = "a/b" }`}),
			bad(resource, "annotation key with two '/'", `annotations["a/b/c"]`, part{"annotations", `annotations = { "a/b/c" = "x" }`}),
			bad(resource, "null label value", "labels", part{"labels", `labels = { team = null }`}),
		)
	}
	return cases
}

// corpus is every bad case.
func corpus() []badCase {
	const (
		rf  = "mlplatform_resource_flavor"
		cq  = "mlplatform_cluster_queue"
		co  = "mlplatform_cohort"
		lq  = "mlplatform_local_queue"
		wpc = "mlplatform_workload_priority_class"
		nc  = "mlplatform_node_class"
		np  = "mlplatform_gpu_node_pool"
		mig = "mlplatform_mig_config"
		ts  = "mlplatform_time_slicing_config"
		tjt = "mlplatform_training_job_template"
		sch = "mlplatform_training_schedule"
		tm  = "mlplatform_team"
		bil = "mlplatform_gpu_billing_rules"
		db  = "mlplatform_gpu_dashboard"
		ac  = "mlplatform_admission_check"
		prc = "mlplatform_provisioning_request_config"
		top = "mlplatform_topology"
		mkc = "mlplatform_multikueue_cluster"
		mkq = "mlplatform_multikueue_config"
	)
	rg := func(covered, flavor, resource, quota, extra string) part {
		return part{"resource_group", `resource_group {
    covered_resources = ` + covered + `
    flavor {
      name = "` + flavor + `"
      resource {
        name          = "` + resource + `"
        nominal_quota = "` + quota + `"
        ` + extra + `
      }
    }
  }`}
	}
	cases := []badCase{
		// ResourceFlavor
		bad(rf, "node label key", `node_labels["bad key"]`, part{"node_labels", `node_labels = { "bad key" = "x" }`}),
		bad(rf, "node label value", `node_labels["a"]`, part{"node_labels", `node_labels = { a = "-x-" }`}),
		bad(rf, "GPU label no pool writes", `node_labels["mlplatform.io/gpu"]`, part{"node_labels", `node_labels = { "mlplatform.io/gpu" = "a100-80gb" }`}),
		bad(rf, "taint effect", "node_taints[0].effect", part{"node_taints", `node_taints = [{ key = "k", value = "v", effect = "Sometimes" }]`}),
		bad(rf, "taint key", "node_taints[0].key", part{"node_taints", `node_taints = [{ key = "bad key", effect = "NoSchedule" }]`}),
		bad(rf, "taint value", "node_taints[0].value", part{"node_taints", `node_taints = [{ key = "k", value = "a b", effect = "NoSchedule" }]`}),
		bad(rf, "toleration operator", "tolerations[0].operator", part{"tolerations", `tolerations = [{ key = "k", operator = "Near" }]`}),
		bad(rf, "toleration effect", "tolerations[0].effect", part{"tolerations", `tolerations = [{ key = "k", operator = "Exists", effect = "Sometimes" }]`}),
		bad(rf, "toleration key", "tolerations[0].key", part{"tolerations", `tolerations = [{ key = "bad key", operator = "Exists" }]`}),
		bad(rf, "topology name", "topology_name", part{"topology_name", `topology_name = "Bad_Topology"`}),

		// ClusterQueue
		bad(cq, "quota not a quantity", "resource_group[0].flavor[0].resource[0].nominal_quota", rg(`["cpu"]`, "flavor", "cpu", "lots", "")),
		bad(cq, "negative quota", "resource_group[0].flavor[0].resource[0].nominal_quota", rg(`["cpu"]`, "flavor", "cpu", "-1", "")),
		bad(cq, "quota with an exponent of millions", "resource_group[0].flavor[0].resource[0].nominal_quota", rg(`["cpu"]`, "flavor", "cpu", "1e-40980098", "")),
		bad(cq, "borrowing limit not a quantity", "resource_group[0].flavor[0].resource[0].borrowing_limit", rg(`["cpu"]`, "flavor", "cpu", "1", `borrowing_limit = "x"`)),
		bad(cq, "lending limit not a quantity", "resource_group[0].flavor[0].resource[0].lending_limit", rg(`["cpu"]`, "flavor", "cpu", "1", `lending_limit = "1.5.3"`)),
		bad(cq, "covered resource twice", "resource_group[0].covered_resources", rg(`["cpu", "cpu"]`, "flavor", "cpu", "1", "")),
		bad(cq, "resource not covered", "resource_group[0].flavor[0].resource[0].name", rg(`["cpu"]`, "flavor", "memory", "1Gi", "")),
		bad(cq, "flavor name", "resource_group[0].flavor[0].name", rg(`["cpu"]`, "Bad_Flavor", "cpu", "1", "")),
		bad(cq, "covered resource name", "resource_group[0].covered_resources[0]", rg(`["bad resource!"]`, "flavor", "bad resource!", "1", "")),
		bad(cq, "cohort name", "cohort", part{"cohort", `cohort = "Bad_Cohort"`}),
		bad(cq, "queueing strategy", "queueing_strategy", part{"queueing_strategy", `queueing_strategy = "Random"`}),
		bad(cq, "stop policy", "stop_policy", part{"stop_policy", `stop_policy = "Pause"`}),
		bad(cq, "preemption within queue", "preemption.within_cluster_queue", part{"preemption", `preemption = { within_cluster_queue = "Sometimes" }`}),
		bad(cq, "reclaim within cohort", "preemption.reclaim_within_cohort", part{"preemption", `preemption = { reclaim_within_cohort = "All" }`}),
		bad(cq, "borrow within cohort policy", "preemption.borrow_within_cohort.policy", part{"preemption", `preemption = { borrow_within_cohort = { policy = "Always" } }`}),
		bad(cq, "selector operator", "namespace_selector.match_expressions[0].operator", part{"namespace_selector", `namespace_selector = { match_expressions = [{ key = "team", operator = "Near" }] }`}),
		bad(cq, "selector label key", `namespace_selector.match_labels["bad key"]`, part{"namespace_selector", `namespace_selector = { match_labels = { "bad key" = "x" } }`}),
		bad(cq, "fair sharing weight", "fair_sharing_weight", part{"fair_sharing_weight", `fair_sharing_weight = "heavy"`}),
		bad(cq, "flavor fungibility", "flavor_fungibility.when_can_borrow", part{"flavor_fungibility", `flavor_fungibility = { when_can_borrow = "Maybe" }`}),
		bad(cq, "null covered resource", "resource_group[0].covered_resources", rg(`["cpu", null]`, "flavor", "cpu", "1", "")),
		bad(cq, "admission check on no flavor of the queue", "admission_checks_strategy[0].on_flavors[0]", part{"admission_checks_strategy",
			`admission_checks_strategy = [{ name = "prov", on_flavors = ["other"] }]`}),
		bad(cq, "admission check twice", "admission_checks_strategy[1].name", part{"admission_checks_strategy",
			`admission_checks_strategy = [{ name = "prov" }, { name = "prov" }]`}),
		bad(cq, "concurrent admission mode", "concurrent_admission_policy.migration.mode", part{"concurrent_admission_policy",
			`concurrent_admission_policy = { migration = { mode = "Always" } }`}),
		bad(cq, "concurrent admission with StrictFIFO", "queueing_strategy", part{"concurrent_admission_policy",
			`concurrent_admission_policy = { migration = { mode = "TryPreferredFlavors" } }
  queueing_strategy = "StrictFIFO"`}),
		bad(cq, "concurrent admission last flavor", "concurrent_admission_policy.migration.constraints.last_acceptable_flavor_name",
			part{"concurrent_admission_policy", `concurrent_admission_policy = { migration = { mode = "TryPreferredFlavors", constraints = { last_acceptable_flavor_name = "other" } } }`}),

		// AdmissionCheck
		bad(ac, "controller name too long", "controller_name", part{"controller_name", `controller_name = "` + long(254) + `"`}),
		bad(ac, "empty controller name", "controller_name", part{"controller_name", `controller_name = ""`}),
		bad(ac, "parameters API group", "parameters.api_group", part{"parameters", `parameters = { api_group = "Kueue", kind = "ProvisioningRequestConfig", name = "prov" }`}),
		bad(ac, "parameters name", "parameters.name", part{"parameters", `parameters = { api_group = "kueue.x-k8s.io", kind = "ProvisioningRequestConfig", name = "a.b" }`}),

		// ProvisioningRequestConfig
		bad(prc, "class name", "provisioning_class_name", part{"provisioning_class_name", `provisioning_class_name = "Check_Capacity"`}),
		bad(prc, "managed resource twice", "managed_resources[1]", part{"managed_resources", `managed_resources = ["nvidia.com/gpu", "nvidia.com/gpu"]`}),
		bad(prc, "parameter too long", `parameters["x"]`, part{"parameters", `parameters = { x = "` + long(256) + `" }`}),
		bad(prc, "merge policy", "pod_set_merge_policy", part{"pod_set_merge_policy", `pod_set_merge_policy = "All"`}),
		bad(prc, "backoff beyond int32", "retry_strategy.backoff_limit_count", part{"retry_strategy", `retry_strategy = { backoff_limit_count = 2147483648 }`}),
		bad(prc, "node selector key", "pod_set_updates.node_selector[0].key", part{"pod_set_updates",
			`pod_set_updates = { node_selector = [{ key = "bad key", value_from_provisioning_class_detail = "x" }] }`}),

		// Topology
		bad(top, "no levels", "levels", part{"levels", `levels = []`}),
		bad(top, "17 levels", "levels", part{"levels", `levels = [` + distinctStrings(17) + `]`}),
		bad(top, "level twice", "levels", part{"levels", `levels = ["topology.k8s.aws/network-node-layer-1", "topology.k8s.aws/network-node-layer-1"]`}),
		bad(top, "hostname not the last level", "levels[0]", part{"levels", `levels = ["kubernetes.io/hostname", "topology.k8s.aws/network-node-layer-1"]`}),
		bad(top, "level not a label key", "levels[0]", part{"levels", `levels = ["bad key"]`}),
		bad(top, "null level", "levels", part{"levels", `levels = ["topology.k8s.aws/network-node-layer-1", null]`}),

		// MultiKueueCluster
		bad(mkc, "kubeconfig Secret name", "kubeconfig_secret", part{"kubeconfig_secret", `kubeconfig_secret = "Bad_Secret"`}),
		bad(mkc, "Kueue namespace", "kueue_namespace", part{"kueue_namespace", `kueue_namespace = "Bad_NS"`}),
		bad(mkc, "kubeconfig without TLS verification", "kubeconfig", part{"kubeconfig",
			`kubeconfig = "apiVersion: v1\nkind: Config\nclusters: [{name: w, cluster: {server: \"https://10.0.0.1:6443\", insecure-skip-tls-verify: true}}]\nusers: [{name: w, user: {token: t}}]\ncontexts: [{name: w, context: {cluster: w, user: w}}]\ncurrent-context: w\n"`}),
		bad(mkc, "kubeconfig path outside Kueue's directory", "kubeconfig_path", part{"kubeconfig_secret", `kubeconfig_path = "/tmp/kubeconfig"`}),

		// MultiKueueConfig
		bad(mkq, "no clusters", "clusters", part{"clusters", `clusters = []`}),
		bad(mkq, "cluster twice", "clusters", part{"clusters", `clusters = ["worker-a", "worker-a"]`}),
		bad(mkq, "cluster name too long", "clusters[0]", part{"clusters", `clusters = ["` + long(257) + `"]`}),
		bad(mkq, "21 clusters", "clusters", part{"clusters", `clusters = [` + distinctStrings(21) + `]`}),
		bad(mkq, "null cluster", "clusters", part{"clusters", `clusters = ["worker-a", null]`}),
		bad(mkq, "quota management", "quota_management", part{"quota_management", `quota_management = "Sometimes"`}),

		// Cohort
		bad(co, "parent name", "parent", part{"parent", `parent = "Bad_Parent"`}),
		bad(co, "fair sharing weight", "fair_sharing_weight", part{"fair_sharing_weight", `fair_sharing_weight = "x"`}),
		bad(co, "quota not a quantity", "resource_group[0].flavor[0].resource[0].nominal_quota", rg(`["cpu"]`, "flavor", "cpu", "lots", "")),
		bad(co, "lending limit not a quantity", "resource_group[0].flavor[0].resource[0].lending_limit", rg(`["cpu"]`, "flavor", "cpu", "1", `lending_limit = "x"`)),
		bad(co, "borrowing limit not a quantity", "resource_group[0].flavor[0].resource[0].borrowing_limit", rg(`["cpu"]`, "flavor", "cpu", "1", `borrowing_limit = "1e"`)),
		bad(co, "covered resource twice", "resource_group[0].covered_resources", rg(`["cpu", "cpu"]`, "flavor", "cpu", "1", "")),

		// LocalQueue
		bad(lq, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(lq, "cluster queue", "cluster_queue", part{"cluster_queue", `cluster_queue = "Bad_Queue"`}),
		bad(lq, "stop policy", "stop_policy", part{"stop_policy", `stop_policy = "Pause"`}),
		bad(lq, "namespace too long", "namespace", part{"namespace", `namespace = "` + long(64) + `"`}),

		// WorkloadPriorityClass
		bad(wpc, "value below the limit", "value", part{"value", `value = -2147483649`}),
		bad(wpc, "name too long", "name", part{"name", `name = "` + long(254) + `"`}),

		// EC2NodeClass
		bad(nc, "no AMI selector", "ami_selector", part{"ami_selector", `ami_selector = []`}),
		bad(nc, "AMI alias", "ami_selector[0].alias", part{"ami_selector", `ami_selector = [{ alias = "windows" }]`}),
		bad(nc, "empty subnet selector term", "subnet_selector[0]", part{"subnet_selector", `subnet_selector = [{}]`}),
		bad(nc, "empty security group selector term", "security_group_selector[0]", part{"security_group_selector", `security_group_selector = [{}]`}),
		bad(nc, "volume size", "block_device[0].volume_size", part{"block_device", `block_device = [{ device_name = "/dev/xvda", volume_size = "big" }]`}),
		bad(nc, "volume type", "block_device[0].volume_type", part{"block_device", `block_device = [{ device_name = "/dev/xvda", volume_size = "100Gi", volume_type = "gp9" }]`}),
		bad(nc, "http tokens", "metadata_options.http_tokens", part{"metadata_options", `metadata_options = { http_tokens = "maybe" }`}),
		bad(nc, "hop limit", "metadata_options.http_put_response_hop_limit", part{"metadata_options", `metadata_options = { http_put_response_hop_limit = 0 }`}),
		bad(nc, "max pods", "kubelet.max_pods", part{"kubelet", `kubelet = { max_pods = -1 }`}),
		bad(nc, "image GC threshold", "kubelet.image_gc_high_threshold_percent", part{"kubelet", `kubelet = { image_gc_high_threshold_percent = 150 }`}),
		bad(nc, "AMI family", "ami_family", part{"ami_family", `ami_family = "Windows95"`}),
		bad(nc, "role and instance profile", "role", part{"instance_profile", `instance_profile = "profile"`}),
		bad(nc, "null tag value", "tags", part{"tags", `tags = { owner = null }`}),
		bad(nc, "null billing value", "billing", part{"billing", `billing = { team = null }`}),
		bad(nc, "null subnet selector term", "subnet_selector", part{"subnet_selector", `subnet_selector = [null]`}),

		// GPU node pool
		bad(np, "GPU model", "gpu.model", part{"gpu", `gpu = { model = "a200" }`}),
		bad(np, "negative on-demand GPUs", "on_demand.max_gpus", part{"on_demand", `on_demand = { max_gpus = -1 }`}),
		bad(np, "spot discount above 1", "spot.discount", part{"spot", `spot = { max_gpus = 8, discount = 1.5 }`}),
		bad(np, "MIG strategy", "mig.strategy", part{"mig", `mig = { strategy = "sometimes", config = "all-1g.10gb" }`}),
		bad(np, "MIG profile", "mig.profiles", part{"mig", `mig = { strategy = "mixed", profiles = { "9g.99gb" = 1 } }`}),
		bad(np, "consolidation policy", "disruption.consolidation_policy", part{"disruption", `disruption = { consolidation_policy = "Never" }`}),
		bad(np, "consolidate after", "disruption.consolidate_after", part{"disruption", `disruption = { consolidate_after = "soon" }`}),
		bad(np, "expire after", "expire_after", part{"expire_after", `expire_after = "forever"`}),
		bad(np, "taint effect", "taints[0].effect", part{"taints", `taints = [{ key = "k", effect = "Sometimes" }]`}),
		bad(np, "time-slicing replicas", "time_slicing.replicas", part{"time_slicing", `time_slicing = { replicas = 0 }`}),
		bad(np, "node label key", `node_labels["bad key"]`, part{"node_labels", `node_labels = { "bad key" = "x" }`}),
		bad(np, "budget nodes", "disruption.budgets[0].nodes", part{"disruption", `disruption = { budgets = [{ nodes = "lots" }] }`}),
		bad(np, "instance type of another GPU", "gpu.instance_types[0]", part{"gpu", `gpu = { model = "a100-80gb", instance_types = ["g5.xlarge"] }`}),
		bad(np, "null billing value", "billing", part{"billing", `billing = { team = null }`}),
		bad(np, "null instance type", "gpu.instance_types", part{"gpu", `gpu = { model = "a100-80gb", instance_types = [null] }`}),

		// MIG config
		bad(mig, "MIG profile", `mig_configs["c"].entries[0].mig_devices`, part{"mig_configs", `mig_configs = { c = { entries = [{ gpu = "a100-80gb", mig_enabled = true, mig_devices = { "9g.99gb" = 1 } }] } }`}),
		bad(mig, "GPU", `mig_configs["c"].entries[0].gpu`, part{"mig_configs", `mig_configs = { c = { entries = [{ gpu = "a200", mig_enabled = true, mig_devices = { "1g.10gb" = 7 } }] } }`}),
		bad(mig, "too many slices", `mig_configs["c"].entries[0].mig_devices`, part{"mig_configs", `mig_configs = { c = { entries = [{ gpu = "a100-80gb", mig_enabled = true, mig_devices = { "1g.10gb" = 8 } }] } }`}),
		bad(mig, "devices without MIG", `mig_configs["c"].entries[0].mig_devices`, part{"mig_configs", `mig_configs = { c = { entries = [{ mig_enabled = false, mig_devices = { "1g.10gb" = 1 } }] } }`}),
		bad(mig, "negative device index", `mig_configs["c"].entries[0].devices[0]`, part{"mig_configs", `mig_configs = { c = { entries = [{ devices = [-1], mig_enabled = false }] } }`}),
		bad(mig, "no entries", `mig_configs["c"].entries`, part{"mig_configs", `mig_configs = { c = { entries = [] } }`}),
		bad(mig, "config name", `mig_configs["bad name"]`, part{"mig_configs", `mig_configs = { "bad name" = { entries = [{ mig_enabled = false }] } }`}),
		bad(mig, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(mig, "slices that do not fit together", `mig_configs["c"].entries[0].mig_devices`, part{"mig_configs", `mig_configs = { c = { entries = [{ gpu = "a100-80gb", mig_enabled = true, mig_devices = { "4g.40gb" = 2 } }] } }`}),
		bad(mig, "null device index", `mig_configs["c"].entries[0].devices`, part{"mig_configs", `mig_configs = { c = { entries = [{ devices = [null], mig_enabled = false }] } }`}),

		// Time-slicing config
		bad(ts, "zero replicas", `configs["any"].resources[0].replicas`, part{"configs", `configs = { any = { resources = [{ name = "nvidia.com/gpu", replicas = 0 }] } }`}),
		bad(ts, "resource name", `configs["any"].resources[0].name`, part{"configs", `configs = { any = { resources = [{ name = "bad resource!", replicas = 2 }] } }`}),
		bad(ts, "MIG strategy", `configs["any"].mig_strategy`, part{"configs", `configs = { any = { mig_strategy = "sometimes", resources = [{ name = "nvidia.com/gpu", replicas = 2 }] } }`}),
		bad(ts, "no resources", `configs["any"].resources`, part{"configs", `configs = { any = { resources = [] } }`}),
		bad(ts, "config name", `configs["bad name"]`, part{"configs", `configs = { "bad name" = { resources = [{ name = "nvidia.com/gpu", replicas = 2 }] } }`}),
		bad(ts, "rename", `configs["any"].resources[0].rename`, part{"configs", `configs = { any = { resources = [{ name = "nvidia.com/gpu", rename = "bad name!", replicas = 2 }] } }`}),
		bad(ts, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(ts, "resource twice", `configs["any"].resources[1].name`, part{"configs", `configs = { any = { resources = [{ name = "nvidia.com/gpu", replicas = 2 }, { name = "nvidia.com/gpu", replicas = 3 }] } }`}),
		bad(ts, "null config", "configs", part{"configs", `configs = { any = { resources = [{ name = "nvidia.com/gpu", replicas = 2 }] }, x = null }`}),
		bad(ts, "null device list strategy", `configs["any"].plugin.device_list_strategy`, part{"configs", `configs = { any = { plugin = { device_list_strategy = [null] } } }`}),

		// Training job template
		bad(tjt, "no image", "image", part{"image", `image = ""`}),
		bad(tjt, "zero CPU cores", "hardware.cpu_cores", part{"hardware", `hardware = { cpu_cores = 0, memory_gb = 16 }`}),
		bad(tjt, "negative memory", "hardware.memory_gb", part{"hardware", `hardware = { cpu_cores = 2, memory_gb = -1 }`}),
		bad(tjt, "GPU type", "hardware.gpu_type", part{"hardware", `hardware = { gpu_type = "a200", cpu_cores = 2, memory_gb = 16 }`}),
		bad(tjt, "capacity", "capacity", part{"capacity", `capacity = "free"`}),
		bad(tjt, "negative retry limit", "retry.limit", part{"retry", `retry = { limit = -1 }`}),
		bad(tjt, "retry backoff", "retry.backoff", part{"retry", `retry = { limit = 3, backoff = "soon" }`}),
		bad(tjt, "active deadline", "active_deadline", part{"active_deadline", `active_deadline = "forever"`}),
		bad(tjt, "pod GC", "pod_gc", part{"pod_gc", `pod_gc = "Sometimes"`}),
		bad(tjt, "relative mount path", "volumes[0].mount_path", part{"volumes", `volumes = [{ claim_name = "data", mount_path = "data" }]`}),
		bad(tjt, "volume claim name", "volumes[0].claim_name", part{"volumes", `volumes = [{ claim_name = "Bad_Claim", mount_path = "/data" }]`}),
		bad(tjt, "queue name", "queue", part{"queue", `queue = "Bad_Queue"`}),
		bad(tjt, "service account", "service_account", part{"service_account", `service_account = "Bad_SA"`}),
		bad(tjt, "environment variable name", `env["1BAD"]`, part{"env", `env = { "1BAD" = "x" }`}),
		bad(tjt, "TTL after finished", "ttl_after_finished", part{"ttl_after_finished", `ttl_after_finished = "a while"`}),
		bad(tjt, "billing label key", `billing["bad key"]`, part{"billing", `billing = { "bad key" = "x" }`}),
		bad(tjt, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(tjt, "checkpoint grace period", "checkpoint.termination_grace_period", part{"checkpoint", `checkpoint = { uri = "s3://b/c", termination_grace_period = "soon" }`}),
		bad(tjt, "null hyperparameter", "hyperparameters", part{"hyperparameters", `hyperparameters = { lr = null }`}),
		bad(tjt, "null argument", "args", part{"args", `args = ["--epochs=3", null]`}),

		// Training schedule
		bad(sch, "not a cron schedule", "schedules[0]", part{"schedules", `schedules = ["every night"]`}),
		bad(sch, "time zone", "timezone", part{"timezone", `timezone = "Mars/Olympus_Mons"`}),
		bad(sch, "concurrency policy", "concurrency_policy", part{"concurrency_policy", `concurrency_policy = "Sometimes"`}),
		bad(sch, "starting deadline", "starting_deadline", part{"starting_deadline", `starting_deadline = "soon"`}),
		bad(sch, "negative history limit", "successful_jobs_history_limit", part{"successful_jobs_history_limit", `successful_jobs_history_limit = -1`}),
		bad(sch, "negative failed history limit", "failed_jobs_history_limit", part{"failed_jobs_history_limit", `failed_jobs_history_limit = -1`}),
		bad(sch, "template name", "template", part{"template", `template = "Bad_Template"`}),
		bad(sch, "no schedules", "schedules", part{"schedules", `schedules = []`}),
		bad(sch, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(sch, "cron field out of range", "schedules[0]", part{"schedules", `schedules = ["0 25 * * *"]`}),
		bad(sch, "null parameter", "parameters", part{"parameters", `parameters = { dataset_version = null }`}),

		// Team
		bad(tm, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(tm, "cost centre", "cost_centre", part{"cost_centre", `cost_centre = "cc 4102"`}),
		bad(tm, "local queue name", `local_queues["Bad_Queue"]`, part{"local_queues", `local_queues = { "Bad_Queue" = "queue" }`}),
		bad(tm, "cluster queue name", `local_queues["training"]`, part{"local_queues", `local_queues = { training = "Bad_Queue" }`}),
		bad(tm, "project label", "project_label", part{"project_label", `project_label = "bad key"`}),
		bad(tm, "Kueue namespace label", `kueue_namespace_labels["bad key"]`, part{"kueue_namespace_labels", `kueue_namespace_labels = { "bad key" = "true" }`}),
		bad(tm, "workflow service account", "workflow_service_account", part{"workflow_service_account", `workflow_service_account = "Bad_SA"`}),
		bad(tm, "name too long for a namespace", "name", part{"name", `name = "` + long(64) + `"`}),
		bad(tm, "null member group", "member_groups", part{"member_groups", `member_groups = ["nlp", null]`}),
		bad(tm, "null local queue", "local_queues", part{"local_queues", `local_queues = { training = null }`}),

		// GPU billing rules
		bad(bil, "admission wait SLO", "admission_wait_slo", part{"admission_wait_slo", `admission_wait_slo = "soon"`}),
		bad(bil, "evaluation interval", "evaluation_interval", part{"evaluation_interval", `evaluation_interval = "1500ms"`}),
		bad(bil, "memory alert ratio", "gpu_memory_alert_ratio", part{"gpu_memory_alert_ratio", `gpu_memory_alert_ratio = 1.5`}),
		bad(bil, "alert label key", `alert_labels["bad key"]`, part{"alert_labels", `alert_labels = { "bad key" = "x" }`}),
		bad(bil, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(bil, "pending alert after", "pending_alert_after", part{"pending_alert_after", `pending_alert_after = "1 hour"`}),
		bad(bil, "idle alert after", "gpu_idle_alert_after", part{"gpu_idle_alert_after", `gpu_idle_alert_after = "1 hour"`}),
		bad(bil, "team label", "team_label", part{"team_label", `team_label = "bad label!"`}),
		bad(bil, "SLO per queue", `admission_wait_slo_per_queue["research"]`, part{"admission_wait_slo_per_queue", `admission_wait_slo_per_queue = { research = "soon" }`}),
		bad(bil, "queue inactive alert after", "queue_inactive_alert_after", part{"queue_inactive_alert_after", `queue_inactive_alert_after = "x"`}),
		bad(bil, "capacity type", `pools["a100"]["preemptible"]`, part{"pools", `pools = { a100 = { preemptible = { node_labels = {}, per_gpu = {}, hourly_price = null } } }`}),
		bad(bil, "GPU model of a pool", `pools["a100"]["spot"]`, part{"pools", `pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = "a200", "karpenter.sh/nodepool" = "a100-spot" }
    per_gpu      = { "nvidia.com/gpu" = 1 }
    hourly_price = { "nvidia.com/gpu" = 1.5 }
  } } }`}),

		bad(bil, "null supply", `pools["a100"]`, part{"pools", `pools = { a100 = { spot = null } }`}),
		bad(bil, "null node label of a supply", `pools["a100"]["spot"].node_labels`, part{"pools", `pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = "a100", "karpenter.sh/capacity-type" = "spot", "karpenter.sh/nodepool" = null }
    per_gpu      = { "nvidia.com/gpu" = 1 }
    hourly_price = { "nvidia.com/gpu" = 1.5 }
  } } }`}),

		// GPU dashboard
		bad(db, "refresh", "refresh", part{"refresh", `refresh = "sometimes"`}),
		bad(db, "time from", "time_from", part{"time_from", `time_from = "yesterday"`}),
		bad(db, "dashboard UID too long", "dashboard_uid", part{"dashboard_uid", `dashboard_uid = "` + long(41) + `"`}),
		bad(db, "namespace", "namespace", part{"namespace", `namespace = "Bad_NS"`}),
		bad(db, "sidecar label", "sidecar_label", part{"sidecar_label", `sidecar_label = "bad key"`}),
		bad(db, "folder annotation", "folder_annotation", part{"folder_annotation", `folder_annotation = "bad key"`}),
		bad(db, "time to", "time_to", part{"time_to", `time_to = "later"`}),
	}
	return append(cases, metadataCases()...)
}

// distinctStrings are n distinct quoted strings, each a valid label key.
func distinctStrings(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%q", fmt.Sprintf("example.com/item-%d", i))
	}
	return strings.Join(out, ", ")
}

func long(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}
