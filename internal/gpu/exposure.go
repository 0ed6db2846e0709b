package gpu

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
)

// Strategy is the device plugin's / GPU Operator's MIG strategy.
type Strategy string

const (
	// StrategyMixed advertises each profile as nvidia.com/mig-<profile>.
	StrategyMixed Strategy = "mixed"
	// StrategySingle advertises MIG devices as nvidia.com/gpu; every GPU of
	// the node must carry one profile only (the GPU Operator chart default).
	StrategySingle Strategy = "single"
)

// TimeSlicing is the device plugin's sharing.timeSlicing for the node; the
// replicas apply to every resource the node exposes.
type TimeSlicing struct {
	// Replicas per device; the device plugin requires at least 2.
	Replicas int
	// RenameByDefault advertises "<resource>.shared" instead of "<resource>".
	RenameByDefault bool
}

// NodeSpec describes a GPU node: which GPUs, how many, how they are split.
type NodeSpec struct {
	// Model may be nil when InstanceType is set.
	Model *Model
	// InstanceType (AWS) sets Model and GPUsPerNode.
	InstanceType string
	// GPUsPerNode may be 0 when InstanceType is set.
	GPUsPerNode int
	// MIG is a named config or a layout (see Resolve), or parts of the node's GPUs with a config
	// each (see ParseParts); "" means MIG off.
	MIG string
	// Strategy is required when MIG is on.
	Strategy Strategy
	// TimeSlicing is nil when GPUs are not time-sliced.
	TimeSlicing *TimeSlicing
}

// Exposure is what a node offers to pods and how to select it.
type Exposure struct {
	Model       *Model
	GPUsPerNode int
	MIG         MIGConfig
	Strategy    Strategy
	// ResourcesPerGPU and ResourcesPerNode map extended resource names
	// (nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...) to counts. ResourcesPerGPU
	// is nil when the node's GPUs are split into parts, which expose different things.
	ResourcesPerGPU  map[string]int64
	ResourcesPerNode map[string]int64
	// Parts are the node's parts with what one GPU of each exposes; nil unless
	// spec.MIG gave parts. MIG is then the config of the whole node.
	Parts []ExposedPart
	// NodeLabels are the labels such a node carries that select it; see the
	// Label* constants for who sets each.
	NodeLabels map[string]string
}

// Expose computes what a node of spec exposes.
func Expose(spec NodeSpec) (*Exposure, error) {
	m, gpus, err := nodeGPUs(spec)
	if err != nil {
		return nil, err
	}
	ts := spec.TimeSlicing
	if ts != nil && ts.Replicas < 2 {
		return nil, fmt.Errorf("time-slicing replicas must be at least 2, got %d (omit time-slicing for 1)", ts.Replicas)
	}
	if IsParts(spec.MIG) {
		return exposeParts(spec, m, gpus)
	}
	cfg := MIGConfig{Name: ConfigAllDisabled, Layout: Layout{}}
	if spec.MIG != "" {
		if cfg, err = Resolve(m, spec.MIG); err != nil {
			return nil, err
		}
	}
	perGPU, labels, err := exposeGPU(m, cfg, spec.Strategy, ts)
	if err != nil {
		return nil, err
	}
	perNode := map[string]int64{}
	for r, n := range perGPU {
		perNode[r] = n * int64(gpus)
	}
	if m.MIGCapable() {
		labels[LabelMIGConfig] = cfg.Name
	}
	e := &Exposure{Model: m, GPUsPerNode: gpus, MIG: cfg, Strategy: spec.Strategy,
		ResourcesPerGPU: perGPU, ResourcesPerNode: perNode, NodeLabels: labels}
	e.addKarpenterLabels()
	return e, nil
}

// exposeGPU is what one GPU of model m under cfg exposes, and the labels GFD gives its node.
func exposeGPU(m *Model, cfg MIGConfig, strategy Strategy, ts *TimeSlicing) (map[string]int64, map[string]string, error) {
	shared := ts != nil && !ts.RenameByDefault // GFD appends -SHARED to the product
	perGPU := map[string]int64{}
	labels := map[string]string{}
	switch {
	case !cfg.Enabled:
		perGPU[ResourceGPU] = 1
		labels[LabelGPUProduct] = productLabel(m, "", shared)
	case strategy == StrategyMixed:
		for p, n := range cfg.Layout {
			prof, _ := m.Profile(p)
			perGPU[prof.ResourceName()] = int64(n)
		}
		// MIG-enabled GPUs keep the plain product label under mixed; GFD
		// labels them without sharing information.
		labels[LabelGPUProduct] = productLabel(m, "", false)
	case strategy == StrategySingle:
		p, ok := cfg.Layout.Uniform()
		if !ok {
			return nil, nil, singleStrategyError(m, cfg)
		}
		perGPU[ResourceGPU] = int64(cfg.Layout[p])
		labels[LabelGPUProduct] = productLabel(m, p, shared)
	default:
		return nil, nil, fmt.Errorf("MIG strategy %q: use %q or %q when MIG is on (config %s)",
			strategy, StrategyMixed, StrategySingle, cfg.Name)
	}
	if ts == nil {
		return perGPU, labels, nil
	}
	sliced := map[string]int64{}
	for r, n := range perGPU {
		if ts.RenameByDefault {
			r += sharedSuffix
		}
		sliced[r] = n * int64(ts.Replicas)
	}
	if !cfg.Enabled || strategy == StrategySingle {
		labels[LabelGPUReplicas] = strconv.Itoa(ts.Replicas)
	}
	return sliced, labels, nil
}

func (e *Exposure) addKarpenterLabels() {
	if e.Model.KarpenterGPUName != "" {
		e.NodeLabels[LabelKarpenterGPUName] = e.Model.KarpenterGPUName
		e.NodeLabels[LabelKarpenterGPUMemory] = strconv.FormatInt(e.Model.KarpenterGPUMemoryMiB, 10)
	}
}

// ExposedPart is a part of a node's GPUs and what one GPU of it exposes.
type ExposedPart struct {
	ResolvedPart
	ResourcesPerGPU map[string]int64
}

// exposeParts is Expose for a node whose GPUs are split into parts. The device plugin's single
// strategy needs one profile on every GPU, and time-slicing MIG parts is not modelled, so both
// are refused.
func exposeParts(spec NodeSpec, m *Model, gpus int) (*Exposure, error) {
	if !m.MIGCapable() {
		return nil, &LayoutError{Model: m.Name, Reason: ReasonNotMIGCapable}
	}
	if spec.Strategy != StrategyMixed {
		return nil, fmt.Errorf("a node split into MIG parts needs the %q strategy: under %q every GPU must expose one profile",
			StrategyMixed, StrategySingle)
	}
	if spec.TimeSlicing != nil {
		return nil, errors.New("a node split into MIG parts cannot also be time-sliced")
	}
	parts, err := ParseParts(spec.MIG)
	if err != nil {
		return nil, err
	}
	resolved, err := ResolveParts(m, gpus, parts)
	if err != nil {
		return nil, err
	}
	e := &Exposure{Model: m, GPUsPerNode: gpus, Strategy: spec.Strategy, ResourcesPerNode: map[string]int64{},
		NodeLabels: map[string]string{}, MIG: MIGConfig{Name: PartsConfigName(resolved), Custom: true}}
	for _, p := range resolved {
		perGPU, labels, err := exposeGPU(m, p.MIG, spec.Strategy, nil)
		if err != nil {
			return nil, err
		}
		maps.Copy(e.NodeLabels, labels) // the same product label for every part under mixed
		for r, n := range perGPU {
			e.ResourcesPerNode[r] += n * int64(len(p.Devices))
		}
		e.MIG.Enabled = e.MIG.Enabled || p.MIG.Enabled
		e.Parts = append(e.Parts, ExposedPart{ResolvedPart: p, ResourcesPerGPU: perGPU})
	}
	e.NodeLabels[LabelMIGConfig] = e.MIG.Name
	e.addKarpenterLabels()
	return e, nil
}

// nodeGPUs settles the model and GPU count from the model, the instance
// type or both, refusing contradictions.
func nodeGPUs(spec NodeSpec) (*Model, int, error) {
	if spec.InstanceType == "" {
		if spec.Model == nil {
			return nil, 0, errors.New("a GPU node needs a model or an instance type")
		}
		if spec.GPUsPerNode < 1 {
			return nil, 0, fmt.Errorf("GPUs per node must be at least 1, got %d", spec.GPUsPerNode)
		}
		return spec.Model, spec.GPUsPerNode, nil
	}
	m, it, err := ModelForInstanceType(spec.InstanceType)
	if err != nil {
		return nil, 0, err
	}
	if spec.Model != nil && spec.Model != m {
		return nil, 0, fmt.Errorf("instance type %s carries %s, not %s", it.Name, m.Name, spec.Model.Name)
	}
	if spec.GPUsPerNode != 0 && spec.GPUsPerNode != it.GPUs {
		return nil, 0, fmt.Errorf("instance type %s has %d GPUs, not %d", it.Name, it.GPUs, spec.GPUsPerNode)
	}
	return m, it.GPUs, nil
}

// singleStrategyError explains why a layout cannot be used with the single
// strategy: GFD would label the node "<product>-MIG-INVALID" and advertise
// no GPUs (NVIDIA/gpu-operator#479; lm/mig-strategy.go).
func singleStrategyError(m *Model, cfg MIGConfig) error {
	what := "mixes profiles (" + cfg.Layout.Summary() + ")"
	if cfg.Layout.Instances() == 0 {
		what = "enables MIG with no instances"
	}
	return fmt.Errorf("MIG config %s %s, but the single strategy needs exactly one profile per GPU: "+
		"GPU Feature Discovery would label the node %s=%s and it would expose no GPUs; "+
		"use strategy %q or a uniform config such as %s",
		cfg.Name, what, LabelGPUProduct, productLabel(m, "INVALID", false), StrategyMixed, allPrefix+dotted(m.MIG[0].Name))
}
