package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// revLabel is the label every object of a workload carries; the "one changed attribute" step
// changes its value from v1 to v2 on every object.
const revLabel = "bench.mlplatform.io/rev"

// A workload is what one variant applies: its Terraform configuration for a label value.
type workload struct {
	name string
	n    int // ResourceFlavors, and as many ClusterQueues; 0 for the seed platform
}

// A variant is one way of declaring a workload's objects: through this provider, through
// terraform_data (Terraform's own floor: no API), or through another provider's generic manifest
// resource.
type variant struct {
	name string
	// source is the provider's address in required_providers; "" for terraform_data.
	source string
	// exe is the prefix of the plugin's executable name, whose process is measured.
	exe string
	// prefix names the objects, so that variants never collide.
	prefix string
	// resource declares, with count = local.n, the flavors ("f") or the queues ("q") as the
	// generic manifest obj (an HCL object expression).
	resource func(kind, obj string) string
}

var (
	mlplatform = variant{name: "mlplatform", source: "mlplatform/mlplatform", exe: "terraform-provider-mlplatform", prefix: "mlp"}

	terraformData = variant{name: "terraform_data", prefix: "data",
		resource: func(kind, obj string) string {
			return fmt.Sprintf("resource \"terraform_data\" %q {\n  count = local.n\n  input = %s\n}\n", kind, obj)
		}}

	// peers are other providers' generic manifest resources, run when an environment variable
	// names their binary (no registry is reachable from here).
	peers = []struct {
		env string
		variant
	}{
		{"BENCH_KUBECTL_PROVIDER", variant{name: "alekc/kubectl", source: "alekc/kubectl", exe: "terraform-provider-kubectl", prefix: "kctl",
			resource: func(kind, obj string) string {
				return fmt.Sprintf("resource \"kubectl_manifest\" %q {\n  count = local.n\n  server_side_apply = true\n  yaml_body = yamlencode(%s)\n}\n", kind, obj)
			}}},
		{"BENCH_KUBERNETES_PROVIDER", variant{name: "hashicorp/kubernetes", source: "hashicorp/kubernetes", exe: "terraform-provider-kubernetes", prefix: "k8s",
			resource: func(kind, obj string) string {
				return fmt.Sprintf("resource \"kubernetes_manifest\" %q {\n  count = local.n\n  manifest = %s\n}\n", kind, obj)
			}}},
	}
)

// flavorRef is how a variant's queue names its flavor, so that each queue depends on its flavor
// as with this provider.
func flavorRef(v variant) string {
	switch v.name {
	case "terraform_data":
		return "terraform_data.f[count.index].output.metadata.name"
	case "alekc/kubectl":
		return "kubectl_manifest.f[count.index].name"
	case "hashicorp/kubernetes":
		return "kubernetes_manifest.f[count.index].manifest.metadata.name"
	}
	return ""
}

// config is the Terraform configuration of workload w through variant v, with every object's
// revLabel set to rev.
func config(w workload, v variant, rev string) string {
	var b strings.Builder
	b.WriteString("terraform {\n  required_providers {\n")
	if v.source != "" {
		local := v.source[strings.Index(v.source, "/")+1:]
		fmt.Fprintf(&b, "    %s = { source = %q }\n", local, v.source)
	}
	b.WriteString("  }\n}\n\n")
	fmt.Fprintf(&b, "locals {\n  n = %d\n}\n\n", w.n)
	if v.name == mlplatform.name {
		fmt.Fprintf(&b, `resource "mlplatform_resource_flavor" "f" {
  count       = local.n
  name        = "bench-%[1]s-f${count.index}"
  node_labels = { "bench.mlplatform.io/flavor" = "f${count.index}" }
  labels      = { %[2]q = %[3]q }
}

resource "mlplatform_cluster_queue" "q" {
  count = local.n
  name  = "bench-%[1]s-q${count.index}"
  resource_group {
    covered_resources = ["cpu", "memory"]
    flavor {
      name = mlplatform_resource_flavor.f[count.index].name
      resource {
        name          = "cpu"
        nominal_quota = "8"
      }
      resource {
        name          = "memory"
        nominal_quota = "64Gi"
      }
    }
  }
  labels          = { %[2]q = %[3]q }
  wait_for_active = false
}
`, v.prefix, revLabel, rev)
		return b.String()
	}
	b.WriteString(v.resource("f", hclObject(flavorManifest(v.prefix, "${count.index}", rev))))
	b.WriteString("\n")
	q := hclObject(queueManifest(v.prefix, "${count.index}", "${"+flavorRef(v)+"}", rev))
	b.WriteString(v.resource("q", q))
	return b.String()
}

// flavorManifest is the ResourceFlavor every variant declares, i its index (or an HCL
// interpolation of it).
func flavorManifest(prefix, i, rev string) map[string]any {
	return map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2",
		"kind":       "ResourceFlavor",
		"metadata":   map[string]any{"name": "bench-" + prefix + "-f" + i, "labels": map[string]any{revLabel: rev}},
		"spec":       map[string]any{"nodeLabels": map[string]any{"bench.mlplatform.io/flavor": "f" + i}},
	}
}

// queueManifest is the ClusterQueue every variant declares, with flavor's quota of CPU and memory.
func queueManifest(prefix, i, flavor, rev string) map[string]any {
	return map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2",
		"kind":       "ClusterQueue",
		"metadata":   map[string]any{"name": "bench-" + prefix + "-q" + i, "labels": map[string]any{revLabel: rev}},
		"spec": map[string]any{"resourceGroups": []any{map[string]any{
			"coveredResources": []any{"cpu", "memory"},
			"flavors": []any{map[string]any{"name": flavor, "resources": []any{
				map[string]any{"name": "cpu", "nominalQuota": "8"},
				map[string]any{"name": "memory", "nominalQuota": "64Gi"},
			}}},
		}}},
	}
}

// hclObject writes v as an HCL expression (maps with sorted, quoted keys; strings may hold ${}).
func hclObject(v any) string {
	switch t := v.(type) {
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(t)) {
			parts = append(parts, fmt.Sprintf("%q = %s", k, hclObject(t[k])))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case []any:
		var parts []string
		for _, e := range t {
			parts = append(parts, hclObject(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		// %q escapes as Go does, which HCL reads alike for these strings; ${...} stays a template.
		return fmt.Sprintf("%q", t)
	}
	panic(fmt.Sprintf("hclObject: %T", v))
}

// manifests is the YAML of workload w's objects for kubectl (the API's floor).
func manifests(w workload, rev string) ([]byte, error) {
	var docs []string
	for i := range w.n {
		for _, m := range []map[string]any{
			flavorManifest("cli", fmt.Sprint(i), rev),
			queueManifest("cli", fmt.Sprint(i), fmt.Sprintf("bench-cli-f%d", i), rev),
		} {
			y, err := yaml.Marshal(m)
			if err != nil {
				return nil, err
			}
			docs = append(docs, string(y))
		}
	}
	return []byte(strings.Join(docs, "---\n")), nil
}

// seedConfig is examples/complete, calling modules/ml-platform from where it is in the
// repository, with revLabel among the provider's default_labels (so changing it changes every
// object).
func seedConfig(root, rev string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "examples/complete/main.tf"))
	if err != nil {
		return "", err
	}
	s := string(data)
	for _, r := range [][2]string{
		{`"../../modules/ml-platform"`, fmt.Sprintf("%q", filepath.Join(root, "modules/ml-platform"))},
		{"default_labels = {", fmt.Sprintf("default_labels = { %q = %q,", revLabel, rev)},
	} {
		if !strings.Contains(s, r[0]) {
			return "", fmt.Errorf("examples/complete/main.tf no longer contains %s: update cmd/bench/workload.go", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return s, nil
}
