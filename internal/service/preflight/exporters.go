package preflight

import (
	"context"
	"strings"

	nvidiav1 "github.com/NVIDIA/gpu-operator/api/nvidia/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// dcgm-exporter as the GPU Operator runs it (assets/state-dcgm-exporter: the DaemonSet and Service
// nvidia-dcgm-exporter; DCGM_EXPORTER_KUBERNETES=true maps each GPU to the pod holding it; a
// dcgmExporter.config.name ConfigMap replaces the default counters with its dcgm-metrics.csv).
const (
	dcgmComponent     = "dcgm-exporter"
	dcgmExporterName  = "nvidia-dcgm-exporter"
	dcgmKubernetesEnv = "DCGM_EXPORTER_KUBERNETES"
	dcgmMetricsKey    = "dcgm-metrics.csv"
)

// checkDCGMExporter checks that dcgm-exporter runs where the operator puts it, maps GPUs to pods
// (the bill joins on the namespace and pod labels) and exports the fields the bill reads.
func checkDCGMExporter(ctx context.Context, r *reader, namespace string, spec *nvidiav1.DCGMExporterSpec) []finding {
	var out []finding
	var ds appsv1.DaemonSet
	switch res := r.get(ctx, daemonSetKind, namespace, dcgmExporterName, &ds); res {
	case absent, notServed:
		out = append(out, notFound(dcgmComponent, "DaemonSet "+qualified(namespace, dcgmExporterName), res.describe(),
			"dcgmExporter.enabled must be true and the GPU Operator must run in namespace "+namespace+" (else set gpu_operator.namespace)"))
	case present:
		for _, c := range ds.Spec.Template.Spec.Containers {
			for _, e := range c.Env {
				if e.Name == dcgmKubernetesEnv && e.Value != "true" {
					out = append(out, finding{Component: dcgmComponent, Setting: "env " + dcgmKubernetesEnv, Wanted: "true", Found: e.Value,
						Fix: "dcgmExporter.env: " + dcgmKubernetesEnv + " must be true (the bill joins each GPU to its pod by the namespace and pod labels it adds)"})
				}
			}
		}
	}
	var svc corev1.Service
	if res := r.get(ctx, serviceKind, namespace, dcgmExporterName, &svc); res == absent || res == notServed {
		out = append(out, notFound(dcgmComponent, "Service "+qualified(namespace, dcgmExporterName), res.describe(),
			"dcgmExporter.enabled must be true: Prometheus scrapes dcgm-exporter through this Service"))
	}
	if spec.MetricsConfig == nil || spec.MetricsConfig.Name == "" {
		return out
	}
	name := spec.MetricsConfig.Name
	var cm corev1.ConfigMap
	switch res := r.get(ctx, configMapKind, namespace, name, &cm); res {
	case absent, notServed:
		out = append(out, notFound(dcgmComponent, "ConfigMap "+qualified(namespace, name), res.describe(),
			"dcgmExporter.config.name names a ConfigMap that does not exist: create it with "+dcgmMetricsKey+", or unset it for the default counters"))
	case present:
		if missing := lacking(gpu.DCGMFields, csvFields(cm.Data[dcgmMetricsKey])); len(missing) > 0 {
			out = append(out, finding{Component: dcgmComponent, Setting: "ConfigMap " + qualified(namespace, name) + " " + dcgmMetricsKey,
				Wanted: join(gpu.DCGMFields), Found: "lacks " + join(missing),
				Fix: "dcgmExporter.config.name: its " + dcgmMetricsKey + " must list " + join(missing) + " (the billing rules and dashboard read them), or unset it for the default counters"})
		}
	}
	return out
}

// csvFields are the field names of a dcgm-exporter counters file: the first column of each line
// that is not a comment.
func csvFields(csv string) []string {
	var out []string
	for line := range strings.Lines(csv) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		field, _, _ := strings.Cut(line, ",")
		out = append(out, strings.TrimSpace(field))
	}
	return out
}
