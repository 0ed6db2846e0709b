package preflight

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	appsv1 "k8s.io/api/apps/v1"
	cliflag "k8s.io/component-base/cli/flag"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/yaml"
)

// Where Karpenter's Helm chart (v1.15.2, release name karpenter, charts/karpenter/templates/
// deployment.yaml) runs the controller: a Deployment named after the release, its container
// `controller`, whose FEATURE_GATES the chart renders from settings.featureGates (nodeOverlay as
// NodeOverlay=...). The namespace is the chart README's.
const (
	karpenterComponent         = "karpenter"
	defaultKarpenterNamespace  = "karpenter"
	defaultKarpenterDeployment = "karpenter"
	karpenterGatesEnv          = "FEATURE_GATES"
)

// karpenterTarget is the gates the platform needs, by Helm value name (settings.featureGates.<name>),
// and where the controller runs.
type karpenterTarget struct {
	gates                 map[string]bool
	namespace, deployment string
}

// karpenterGate is the gate a Helm value name (nodeOverlay) renders as, among those Karpenter knows.
func karpenterGate(value string) (options.FeatureGate, bool) {
	r := []rune(value)
	if len(r) == 0 {
		return options.FeatureGate{}, false
	}
	r[0] = unicode.ToUpper(r[0])
	i := slices.IndexFunc(options.KarpenterFeatureGates, func(g options.FeatureGate) bool { return g.Name == string(r) })
	if i < 0 {
		return options.FeatureGate{}, false
	}
	return options.KarpenterFeatureGates[i], true
}

// parseKarpenterValues reads settings.featureGates from the Helm values of the Karpenter release.
func parseKarpenterValues(values string) (map[string]bool, error) {
	var v struct {
		Settings struct {
			FeatureGates map[string]bool `json:"featureGates"`
		} `json:"settings"`
	}
	if err := yaml.Unmarshal([]byte(values), &v); err != nil {
		return nil, fmt.Errorf("not Helm values of Karpenter: %w", err)
	}
	for name := range v.Settings.FeatureGates {
		if _, ok := karpenterGate(name); !ok {
			known := make([]string, len(options.KarpenterFeatureGates))
			for i, g := range options.KarpenterFeatureGates {
				known[i] = string(unicode.ToLower(rune(g.Name[0]))) + g.Name[1:]
			}
			return nil, fmt.Errorf("settings.featureGates.%s is not a feature gate of Karpenter (it knows %s)", name, strings.Join(known, ", "))
		}
	}
	return v.Settings.FeatureGates, nil
}

// checkKarpenter compares the wanted gates with the controller's FEATURE_GATES, where a gate it
// does not list has Karpenter's default.
func checkKarpenter(ctx context.Context, r *reader, t karpenterTarget) []finding {
	var d appsv1.Deployment
	switch res := r.get(ctx, deploymentKind, t.namespace, t.deployment, &d); res {
	case unread:
		return nil
	case absent, notServed:
		return []finding{notFound(karpenterComponent, "Deployment "+qualified(t.namespace, t.deployment), res.describe(),
			"install Karpenter with its Helm chart, or set karpenter.namespace and karpenter.deployment to where its controller runs")}
	}
	env := ""
	for _, c := range d.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			if e.Name == karpenterGatesEnv {
				env = e.Value
			}
		}
	}
	live := map[string]bool{}
	if err := cliflag.NewMapStringBool(&live).Set(env); env != "" && err != nil {
		return []finding{{Component: karpenterComponent, Setting: karpenterGatesEnv, Wanted: "gate=bool pairs", Found: env,
			Fix: "the controller's " + karpenterGatesEnv + " is malformed (" + err.Error() + "): set the gates through the chart's settings.featureGates"}}
	}
	names := make([]string, 0, len(t.gates))
	for name := range t.gates {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []finding
	for _, name := range names {
		gate, _ := karpenterGate(name)
		found, set := live[gate.Name]
		if !set {
			found = gate.Default
		}
		if want := t.gates[name]; found != want {
			how := fmt.Sprintf("%s=%t in %s", gate.Name, found, karpenterGatesEnv)
			if !set {
				how = fmt.Sprintf("%t (not in %s: Karpenter's default)", found, karpenterGatesEnv)
			}
			out = append(out, finding{Component: karpenterComponent, Setting: "settings.featureGates." + name,
				Wanted: fmt.Sprint(want), Found: how,
				Fix: fmt.Sprintf("settings.featureGates.%s must be %t (a Helm value of the Karpenter release: the chart sets the controller's %s from it)", name, want, karpenterGatesEnv)})
		}
	}
	return out
}
