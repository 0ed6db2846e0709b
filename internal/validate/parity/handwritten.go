package parity

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// handWritten are objects that break CEL rules which need two fields changed together, which the
// generator's one change cannot do; each is a base object with spec fields set, by kind. Path is
// the node that carries the rule, so that breakRules finds the object.
func handWritten(kind string, base map[string]any) []Case {
	with := func(path []string, change string, fields map[string]any) Case {
		obj := runtime.DeepCopyJSON(base)
		spec := obj["spec"].(map[string]any)
		for k, v := range runtime.DeepCopyJSON(fields) {
			spec[k] = v
		}
		return Case{Path: path, Change: change + " (hand-written)", Obj: obj}
	}
	spec := []string{"spec"}
	// Karpenter v1.15's rule on Gt, Lt, Gte and Lte: the generator's one change (operator Gt on an
	// instance type value) fails the rule's int() conversion, which reports no rule broken.
	twoBounds := []any{map[string]any{"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt", "values": []any{"1", "2"}}}
	alias := func(a string) map[string]any { return map[string]any{"alias": a} }
	switch kind {
	case "EC2NodeClass":
		out := []Case{
			with([]string{"spec", "amiSelectorTerms"}, "alias and a second term",
				map[string]any{"amiSelectorTerms": []any{alias("al2023@latest"), map[string]any{"id": "ami-0123456789abcdef0"}}}),
			with([]string{"spec", "amiSelectorTerms", itemStep, "alias"}, "a windows alias pinned to a version",
				map[string]any{"amiSelectorTerms": []any{alias("windows2022@v20240101")}}),
			with([]string{"spec", "blockDeviceMappings"}, "two root volumes", map[string]any{"blockDeviceMappings": []any{
				map[string]any{"deviceName": "/dev/xvda", "rootVolume": true},
				map[string]any{"deviceName": "/dev/xvdb", "rootVolume": true},
			}}),
			with([]string{"spec", "kubelet"}, "evictionSoft and its grace period for different signals",
				map[string]any{"kubelet": map[string]any{
					"evictionSoft":            map[string]any{"memory.available": "5%"},
					"evictionSoftGracePeriod": map[string]any{"nodefs.available": "1m"},
				}}),
		}
		for _, family := range []string{"al2", "al2023", "bottlerocket", "windows2019", "windows2022", "windows2025"} {
			other := "AL2023"
			if family == "al2023" {
				other = "AL2"
			}
			out = append(out, with(spec, "a "+family+" alias with amiFamily "+other,
				map[string]any{"amiSelectorTerms": []any{alias(family + "@latest")}, "amiFamily": other}))
		}
		return out
	case "ResourceFlavor":
		return []Case{with([]string{"spec", "tolerations"}, "a value with operator Exists",
			map[string]any{"tolerations": []any{map[string]any{"key": "a", "operator": "Exists", "value": "x", "effect": "NoSchedule"}}})}
	case "Topology":
		return []Case{with([]string{"spec", "levels"}, "the hostname level above another",
			map[string]any{"levels": []any{map[string]any{"nodeLabel": "kubernetes.io/hostname"}, map[string]any{"nodeLabel": "topology.kubernetes.io/zone"}}})}
	case "NodePool":
		template := runtime.DeepCopyJSON(base["spec"].(map[string]any)["template"].(map[string]any))
		template["spec"].(map[string]any)["requirements"] = twoBounds
		return []Case{with(spec, "static (replicas) with a cpu limit",
			map[string]any{"replicas": int64(1), "limits": map[string]any{"cpu": "10"}}),
			with([]string{"spec", "template", "spec", "requirements"}, "Gt with two values", map[string]any{"template": template})}
	case "NodeClaim":
		return []Case{with([]string{"spec", "requirements"}, "Gt with two values", map[string]any{"requirements": twoBounds})}
	case "NodeOverlay":
		return []Case{with([]string{"spec", "requirements"}, "NotIn without values",
			map[string]any{"requirements": []any{map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": []any{}}}}),
			with([]string{"spec", "requirements"}, "Gt with two values", map[string]any{"requirements": twoBounds})}
	}
	return nil
}
