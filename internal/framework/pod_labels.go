package framework

import (
	"slices"
	"sync"
)

// Plan-time pod label requirements between resources of one configuration: a team requires a
// label on every pod of its namespace (an admission policy refuses the others), and a training
// template declares the labels its runs' pods carry. Each side records itself and checks what the
// other side recorded, so whichever of the two Terraform plans second reports the template whose
// runs the policy would refuse, whatever the order.

// podLabelRequirement is a label that pods of a namespace must carry, and who requires it.
type podLabelRequirement struct{ label, by string }

type podLabels struct {
	mu       sync.Mutex
	required map[string]podLabelRequirement
	carried  map[string]map[string]map[string]string // namespace, then what, then its pods' labels
}

// RequirePodLabel records that every pod in namespace must carry a non-empty label, as what (e.g.
// `mlplatform_team "nlp"`) requires, and returns the resources planned so far whose pods in
// namespace lack it, sorted.
func (p *ProviderData) RequirePodLabel(namespace, label, what string) (lacking []string) {
	pl := &p.podLabels
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.required == nil {
		pl.required = map[string]podLabelRequirement{}
	}
	pl.required[namespace] = podLabelRequirement{label: label, by: what}
	for what, labels := range pl.carried[namespace] {
		if labels[label] == "" {
			lacking = append(lacking, what)
		}
	}
	slices.Sort(lacking)
	return lacking
}

// CarryPodLabels records that what's pods in namespace carry labels, and returns the label they
// lack and who requires it, if a resource planned so far requires one.
func (p *ProviderData) CarryPodLabels(namespace string, labels map[string]string, what string) (label, requiredBy string, lacking bool) {
	pl := &p.podLabels
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.carried == nil {
		pl.carried = map[string]map[string]map[string]string{}
	}
	if pl.carried[namespace] == nil {
		pl.carried[namespace] = map[string]map[string]string{}
	}
	pl.carried[namespace][what] = labels
	r, ok := pl.required[namespace]
	if !ok || labels[r.label] != "" {
		return "", "", false
	}
	return r.label, r.by, true
}
