package gpu

import (
	"errors"
	"fmt"
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
	// MIG is a named config or a layout (see Resolve); "" means MIG off.
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
	// (nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...) to counts.
	ResourcesPerGPU  map[string]int64
	ResourcesPerNode map[string]int64
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
	cfg := MIGConfig{Name: ConfigAllDisabled, Layout: Layout{}}
	if spec.MIG != "" {
		if cfg, err = Resolve(m, spec.MIG); err != nil {
			return nil, err
		}
	}
	ts := spec.TimeSlicing
	if ts != nil && ts.Replicas < 2 {
		return nil, fmt.Errorf("time-slicing replicas must be at least 2, got %d (omit time-slicing for 1)", ts.Replicas)
	}
	shared := ts != nil && !ts.RenameByDefault // GFD appends -SHARED to the product

	perGPU := map[string]int64{}
	labels := map[string]string{}
	switch {
	case !cfg.Enabled:
		perGPU[ResourceGPU] = 1
		labels[LabelGPUProduct] = productLabel(m, "", shared)
	case spec.Strategy == StrategyMixed:
		for p, n := range cfg.Layout {
			prof, _ := m.Profile(p)
			perGPU[prof.ResourceName()] = int64(n)
		}
		// MIG-enabled GPUs keep the plain product label under mixed; GFD
		// labels them without sharing information.
		labels[LabelGPUProduct] = productLabel(m, "", false)
	case spec.Strategy == StrategySingle:
		p, ok := cfg.Layout.Uniform()
		if !ok {
			return nil, singleStrategyError(m, cfg)
		}
		perGPU[ResourceGPU] = int64(cfg.Layout[p])
		labels[LabelGPUProduct] = productLabel(m, p, shared)
	default:
		return nil, fmt.Errorf("MIG strategy %q: use %q or %q when MIG is on (config %s)",
			spec.Strategy, StrategyMixed, StrategySingle, cfg.Name)
	}

	if ts != nil {
		sliced := map[string]int64{}
		for r, n := range perGPU {
			if ts.RenameByDefault {
				r += sharedSuffix
			}
			sliced[r] = n * int64(ts.Replicas)
		}
		perGPU = sliced
		if !cfg.Enabled || spec.Strategy == StrategySingle {
			labels[LabelGPUReplicas] = strconv.Itoa(ts.Replicas)
		}
	}
	perNode := map[string]int64{}
	for r, n := range perGPU {
		perNode[r] = n * int64(gpus)
	}
	if m.MIGCapable() {
		labels[LabelMIGConfig] = cfg.Name
	}
	if m.KarpenterGPUName != "" {
		labels[LabelKarpenterGPUName] = m.KarpenterGPUName
		labels[LabelKarpenterGPUMemory] = strconv.FormatInt(m.KarpenterGPUMemoryMiB, 10)
	}
	return &Exposure{Model: m, GPUsPerNode: gpus, MIG: cfg, Strategy: spec.Strategy,
		ResourcesPerGPU: perGPU, ResourcesPerNode: perNode, NodeLabels: labels}, nil
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
