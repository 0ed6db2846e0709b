package preflight

import (
	"cmp"
	"context"
	"fmt"

	nvidiav1 "github.com/NVIDIA/gpu-operator/api/nvidia/v1"
	"sigs.k8s.io/yaml"
)

// The GPU Operator's Helm chart renders its values into one ClusterPolicy, `cluster-policy`
// (deployments/gpu-operator/templates/clusterpolicy.yaml), whose spec has the values' names; the
// chart's README installs it in the namespace gpu-operator. An empty migManager.config.name is the
// operator's default-mig-parted-config (controllers/object_controls.go).
const (
	gpuOperatorComponent        = "gpu-operator"
	defaultGPUOperatorNamespace = "gpu-operator"
	defaultClusterPolicy        = "cluster-policy"
	defaultMIGPartedConfig      = "default-mig-parted-config"
)

// gpuOperatorValues are the Helm values of the GPU Operator release that the platform sets; a value
// left out is not checked.
type gpuOperatorValues struct {
	MIG struct {
		Strategy nvidiav1.MIGStrategy `json:"strategy"`
	} `json:"mig"`
	MIGManager struct {
		Config *nvidiav1.MIGPartedConfigSpec `json:"config"`
	} `json:"migManager"`
	DevicePlugin struct {
		Config *nvidiav1.DevicePluginConfig `json:"config"`
	} `json:"devicePlugin"`
	DCGMExporter struct {
		Enabled *bool `json:"enabled"`
	} `json:"dcgmExporter"`
}

// gpuOperatorTarget is what the platform needs of the GPU Operator and where it runs.
type gpuOperatorTarget struct {
	values                   gpuOperatorValues
	namespace, clusterPolicy string
}

func parseGPUOperatorValues(values string) (gpuOperatorValues, error) {
	var v gpuOperatorValues
	if err := yaml.Unmarshal([]byte(values), &v); err != nil {
		return v, fmt.Errorf("not Helm values of the GPU Operator: %w", err)
	}
	return v, nil
}

// checkGPUOperator compares the wanted values with the ClusterPolicy, then checks dcgm-exporter.
func checkGPUOperator(ctx context.Context, r *reader, t gpuOperatorTarget) []finding {
	var cp nvidiav1.ClusterPolicy
	switch res := r.get(ctx, clusterPolicyKind, "", t.clusterPolicy, &cp); res {
	case unread:
		return nil
	case absent, notServed:
		return []finding{notFound(gpuOperatorComponent, "ClusterPolicy "+t.clusterPolicy, res.describe(),
			"install the NVIDIA GPU Operator with its Helm chart, or set gpu_operator.cluster_policy to the ClusterPolicy it runs from")}
	}
	out := compareClusterPolicy(t.values, &cp.Spec)
	if v := t.values.DCGMExporter.Enabled; v != nil && *v && cp.Spec.DCGMExporter.IsEnabled() {
		out = append(out, checkDCGMExporter(ctx, r, t.namespace, &cp.Spec.DCGMExporter)...)
	}
	return out
}

// compareClusterPolicy lists the wanted values the ClusterPolicy's spec does not carry.
func compareClusterPolicy(want gpuOperatorValues, spec *nvidiav1.ClusterPolicySpec) []finding {
	var out []finding
	add := func(setting, wanted, found string) {
		out = append(out, finding{Component: gpuOperatorComponent, Setting: setting, Wanted: wanted, Found: found,
			Fix: setting + " must be " + wanted + " (a Helm value of the GPU Operator release: ClusterPolicy spec." + setting + ")"})
	}
	if w := want.MIG.Strategy; w != "" && spec.MIG.Strategy != w {
		add("mig.strategy", string(w), orUnset(string(spec.MIG.Strategy)))
	}
	if w := want.MIGManager.Config; w != nil {
		if !spec.MIGManager.IsEnabled() {
			add("migManager.enabled", "true", "false")
		}
		var live nvidiav1.MIGPartedConfigSpec
		if spec.MIGManager.Config != nil {
			live = *spec.MIGManager.Config
		}
		// The operator reads its default config when the name is empty.
		if name := cmp.Or(live.Name, defaultMIGPartedConfig); w.Name != "" && w.Name != name {
			add("migManager.config.name", w.Name, orUnset(live.Name))
		}
		if w.Default != "" && w.Default != live.Default {
			add("migManager.config.default", w.Default, orUnset(live.Default))
		}
	}
	if w := want.DevicePlugin.Config; w != nil {
		if !spec.DevicePlugin.IsEnabled() {
			add("devicePlugin.enabled", "true", "false")
		}
		var live nvidiav1.DevicePluginConfig
		if spec.DevicePlugin.Config != nil {
			live = *spec.DevicePlugin.Config
		}
		if w.Name != "" && w.Name != live.Name {
			add("devicePlugin.config.name", w.Name, orUnset(live.Name))
		}
		if w.Default != "" && w.Default != live.Default {
			add("devicePlugin.config.default", w.Default, orUnset(live.Default))
		}
	}
	if w := want.DCGMExporter.Enabled; w != nil && *w != spec.DCGMExporter.IsEnabled() {
		add("dcgmExporter.enabled", fmt.Sprint(*w), fmt.Sprint(spec.DCGMExporter.IsEnabled()))
	}
	return out
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return s
}
