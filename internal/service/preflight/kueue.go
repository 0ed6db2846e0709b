package preflight

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/featuregate"
	config "sigs.k8s.io/kueue/apis/config/v1beta2"
	_ "sigs.k8s.io/kueue/pkg/features" // registers Kueue's gates and their defaults
)

// Where Kueue's Helm chart (v0.19.2, release name kueue, charts/kueue/templates/manager) keeps
// the manager's configuration and runs the manager; kueueHelmValue is the chart's value that
// holds the configuration.
const (
	kueueComponent         = "kueue"
	kueueHelmValue         = "managerConfig.controllerManagerConfigYaml"
	defaultKueueNamespace  = config.DefaultNamespace
	defaultKueueConfigMap  = "kueue-manager-config"
	kueueConfigKey         = "controller_manager_config.yaml"
	defaultKueueDeployment = "kueue-controller-manager"
	kueueContainer         = "manager"
	// disableWaitForPodsReady turns waitForPodsReady off whatever the configuration says.
	disableWaitForPodsReady = "DisableWaitForPodsReady"
)

// kueueTarget is what the platform needs of Kueue and where the live configuration is.
type kueueTarget struct {
	want                             *config.Configuration
	namespace, configMap, deployment string
}

var kueueScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := config.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// parseKueueConfiguration decodes and defaults a Configuration as Kueue's loader does
// (pkg/config: the scheme's universal decoder, which applies the v1beta2 defaults). The wanted one
// is decoded strictly, as Kueue decodes its own; the live one is not, so that fields of a newer
// Kueue do not hide what it lacks.
func parseKueueConfiguration(data string, strict bool) (*config.Configuration, error) {
	var opts []serializer.CodecFactoryOptionsMutator
	if strict {
		opts = append(opts, serializer.EnableStrict)
	}
	codecs := serializer.NewCodecFactory(kueueScheme, opts...)
	cfg := &config.Configuration{}
	if err := runtime.DecodeInto(codecs.UniversalDecoder(), []byte(data), cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkKueue reads the live configuration (and the manager's --feature-gates) and compares.
func checkKueue(ctx context.Context, r *reader, t kueueTarget) []finding {
	where := "ConfigMap " + qualified(t.namespace, t.configMap)
	var cm corev1.ConfigMap
	switch res := r.get(ctx, configMapKind, t.namespace, t.configMap, &cm); res {
	case unread:
		return nil
	case absent, notServed:
		return []finding{notFound(kueueComponent, where, res.describe(),
			"install Kueue with its Helm chart (release kueue in namespace "+defaultKueueNamespace+", "+kueueHelmValue+
				" = the ml-platform module's output kueue_configuration), or set kueue.namespace and kueue.config_map to where its configuration is")}
	}
	data, ok := cm.Data[kueueConfigKey]
	if !ok {
		return []finding{notFound(kueueComponent, where+" key "+kueueConfigKey, "not found",
			"the ConfigMap is not the one Kueue's Helm chart writes: set kueue.config_map to the ConfigMap the Kueue manager reads")}
	}
	live, err := parseKueueConfiguration(data, false)
	if err != nil {
		return []finding{{Component: kueueComponent, Setting: where + " key " + kueueConfigKey,
			Wanted: "a Kueue Configuration (" + config.SchemeGroupVersion.String() + ")", Found: err.Error(),
			Fix: kueueHelmValue + ": must be a Kueue " + config.SchemeGroupVersion.String() + " Configuration"}}
	}
	flags := kueueFlagGates(ctx, r, t)
	var selected []map[string]string
	if sel, err := metav1.LabelSelectorAsSelector(t.want.ManagedJobsNamespaceSelector); err == nil && !sel.Empty() {
		selected, _ = r.namespaceLabels(ctx, sel.String())
	}
	return compareKueue(t.want, live, flags, selected)
}

// kueueFlagGates are the gates the manager's --feature-gates sets (the chart's
// controllerManager.featureGates), which Kueue takes instead of the configuration's.
func kueueFlagGates(ctx context.Context, r *reader, t kueueTarget) map[string]bool {
	var d appsv1.Deployment
	if r.get(ctx, deploymentKind, t.namespace, t.deployment, &d) != present {
		return nil
	}
	gates := map[string]bool{}
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name != kueueContainer {
			continue
		}
		for _, arg := range c.Args {
			if v, ok := strings.CutPrefix(arg, "--feature-gates="); ok {
				_ = cliflag.NewMapStringBool(&gates).Set(v) // a malformed flag stops the manager, not the preflight
			}
		}
	}
	return gates
}

// kueueGate is whether gate is on for a manager run with cfg and flags.
func kueueGate(cfg *config.Configuration, flags map[string]bool, gate string) bool {
	if v, ok := flags[gate]; ok {
		return v
	}
	if v, ok := cfg.FeatureGates[gate]; ok {
		return v
	}
	spec, ok := utilfeature.DefaultMutableFeatureGate.GetAll()[featuregate.Feature(gate)]
	return ok && spec.Default
}

// compareKueue lists what the platform's configuration relies on and the live one lacks.
// selected are the labels of the namespaces the wanted managedJobsNamespaceSelector selects.
func compareKueue(want, live *config.Configuration, flags map[string]bool, selected []map[string]string) []finding {
	var out []finding
	add := func(setting, wanted, found, must string) {
		out = append(out, finding{Component: kueueComponent, Setting: setting, Wanted: wanted, Found: found,
			Fix: kueueHelmValue + ": " + setting + " " + must})
	}
	if missing := lacking(want.Integrations.Frameworks, live.Integrations.Frameworks); len(missing) > 0 {
		add("integrations.frameworks", join(want.Integrations.Frameworks), join(live.Integrations.Frameworks), "must include "+join(missing))
	}
	if missing := lacking(want.Integrations.LabelKeysToCopy, live.Integrations.LabelKeysToCopy); len(missing) > 0 {
		add("integrations.labelKeysToCopy", join(want.Integrations.LabelKeysToCopy), join(live.Integrations.LabelKeysToCopy), "must include "+join(missing))
	}
	if f, ok := compareNamespaceSelector(want.ManagedJobsNamespaceSelector, live.ManagedJobsNamespaceSelector, selected); !ok {
		add("managedJobsNamespaceSelector", metav1.FormatLabelSelector(want.ManagedJobsNamespaceSelector), f,
			"must select the teams' namespaces, e.g. be "+metav1.FormatLabelSelector(want.ManagedJobsNamespaceSelector))
	}
	switch {
	case want.FairSharing != nil && live.FairSharing == nil:
		add("fairSharing", "present (fair sharing on)", "absent", "must be set (e.g. preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]), or the module's fair_sharing set to false")
	case want.FairSharing == nil && live.FairSharing != nil:
		add("fairSharing", "absent (fair sharing off)", "present", "must be removed, or the module's fair_sharing set to true")
	}
	if want.Metrics.EnableClusterQueueResources && !live.Metrics.EnableClusterQueueResources {
		add("metrics.enableClusterQueueResources", "true", "false", "must be true")
	}
	for _, l := range want.Metrics.CustomLabels {
		if !slices.ContainsFunc(live.Metrics.CustomLabels, func(g config.ControllerMetricsCustomLabel) bool { return sameCustomLabel(l, g) }) {
			add("metrics.customLabels", customLabel(l), join(customLabels(live.Metrics.CustomLabels)), "must include "+customLabel(l))
		}
	}
	compareWaitForPodsReady(want, live, flags, add)
	gates := make([]string, 0, len(want.FeatureGates))
	for g := range want.FeatureGates {
		gates = append(gates, g)
	}
	slices.Sort(gates)
	for _, g := range gates {
		if w, l := kueueGate(want, nil, g), kueueGate(live, flags, g); w != l {
			add("featureGates."+g, fmt.Sprint(w), fmt.Sprint(l), fmt.Sprintf("must be %t (or the chart's controllerManager.featureGates, if the manager takes its gates as flags)", w))
		}
	}
	return out
}

// compareWaitForPodsReady: the live timeouts must leave a run at least the wanted time to start
// its pods (on a node still starting), and admission must block as wanted.
func compareWaitForPodsReady(want, live *config.Configuration, flags map[string]bool, add func(setting, wanted, found, must string)) {
	if kueueGate(want, nil, disableWaitForPodsReady) {
		return
	}
	if kueueGate(live, flags, disableWaitForPodsReady) {
		add("featureGates."+disableWaitForPodsReady, "false", "true", "must be false: waitForPodsReady is off")
		return
	}
	w, l := want.WaitForPodsReady, live.WaitForPodsReady
	if l.Timeout.Duration < w.Timeout.Duration {
		add("waitForPodsReady.timeout", w.Timeout.Duration.String(), l.Timeout.Duration.String(), "must be at least "+w.Timeout.Duration.String())
	}
	if wr, lr := w.RecoveryTimeout, l.RecoveryTimeout; wr != nil && (lr == nil || lr.Duration < wr.Duration) {
		found := "(none)"
		if lr != nil {
			found = lr.Duration.String()
		}
		add("waitForPodsReady.recoveryTimeout", wr.Duration.String(), found, "must be at least "+wr.Duration.String())
	}
	if wb, lb := deref(w.BlockAdmission), deref(l.BlockAdmission); wb != lb {
		add("waitForPodsReady.blockAdmission", fmt.Sprint(wb), fmt.Sprint(lb), fmt.Sprintf("must be %t", wb))
	}
}

// compareNamespaceSelector checks that live selects every namespace want selects: the ones the
// cluster has, or, when it has none yet, one carrying want's matchLabels. found describes live.
func compareNamespaceSelector(want, live *metav1.LabelSelector, selected []map[string]string) (found string, ok bool) {
	found = metav1.FormatLabelSelector(live)
	liveSel, err := metav1.LabelSelectorAsSelector(live)
	if err != nil {
		return found + " (invalid: " + err.Error() + ")", false
	}
	if len(selected) == 0 && want != nil && len(want.MatchExpressions) == 0 {
		selected = []map[string]string{want.MatchLabels}
	}
	for _, ns := range selected {
		if !liveSel.Matches(labels.Set(ns)) {
			if name := ns[corev1.LabelMetadataName]; name != "" {
				return found + " (does not select namespace " + name + ")", false
			}
			return found + " (does not select a namespace labelled " + labels.Set(ns).String() + ")", false
		}
	}
	return found, true
}

func sameCustomLabel(a, b config.ControllerMetricsCustomLabel) bool {
	kind := func(l config.ControllerMetricsCustomLabel) config.SourceKind {
		if l.SourceKind == nil {
			return config.DefaultCustomMetricLabelSourceKind
		}
		return *l.SourceKind
	}
	return a.Name == b.Name && a.SourceLabelKey == b.SourceLabelKey && a.SourceAnnotationKey == b.SourceAnnotationKey && kind(a) == kind(b)
}

// customLabel renders a custom metric label as the configuration spells it.
func customLabel(l config.ControllerMetricsCustomLabel) string {
	s := "{name: " + l.Name
	if l.SourceLabelKey != "" {
		s += ", sourceLabelKey: " + l.SourceLabelKey
	}
	if l.SourceAnnotationKey != "" {
		s += ", sourceAnnotationKey: " + l.SourceAnnotationKey
	}
	if l.SourceKind != nil {
		s += ", sourceKind: " + string(*l.SourceKind)
	}
	return s + "}"
}

func customLabels(ls []config.ControllerMetricsCustomLabel) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = customLabel(l)
	}
	return out
}

// lacking are the items of want that have does not hold.
func lacking(want, have []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(have, w) {
			out = append(out, w)
		}
	}
	return out
}

func deref(b *bool) bool { return b != nil && *b }
