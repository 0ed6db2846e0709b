package karpenter

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Capacity types, as karpenter.sh/capacity-type spells them.
const (
	capacitySpot     = "spot"
	capacityOnDemand = "on-demand"
)

// Labels the pool writes on its nodes (through the NodePool template).
const (
	labelPoolGPU      = "mlplatform.io/gpu" // stable: the model's canonical name, lower case
	labelCapacityType = "karpenter.sh/capacity-type"
	labelNodePool     = "karpenter.sh/nodepool"
	labelInstanceType = "node.kubernetes.io/instance-type"
)

// poolInput is the part of a node pool's configuration that decides what its nodes supply,
// in plain Go so that it can be checked and computed without Terraform types.
type poolInput struct {
	Name          string
	Model         string   // any alias gpu.Lookup knows
	InstanceTypes []string // empty: all of the model's
	Strategy      string   // "" when MIG is off
	MIGProfiles   map[string]int
	MIGConfig     string
	Replicas      int // time-slicing; 0 when off
	Capacity      []capacityInput
}

type capacityInput struct {
	Type    string // capacitySpot or capacityOnDemand
	MaxGPUs int64
	Weight  int64
}

// poolPlan is what a valid poolInput yields.
type poolPlan struct {
	Model         *gpu.Model
	InstanceTypes []gpu.InstanceType
	Exposure      *gpu.Exposure // of the first instance type; resources per GPU are the same for all
	Layout        string        // canonical MIG layout when given by profiles, else ""
}

// planError is a problem with one attribute of the pool.
type planError struct {
	Path []any // attribute path steps: names (string) and list indexes (int)
	Msg  string
}

// planPool checks a pool's GPU configuration against internal/gpu and computes what it supplies.
func planPool(in poolInput) (*poolPlan, *planError) {
	m, err := gpu.Lookup(in.Model)
	if err != nil {
		return nil, &planError{[]any{"gpu", "model"}, err.Error()}
	}
	p := &poolPlan{Model: m}
	if len(in.InstanceTypes) == 0 {
		p.InstanceTypes = m.InstanceTypes
		if len(p.InstanceTypes) == 0 {
			return nil, &planError{[]any{"gpu", "model"}, fmt.Sprintf("%s is not offered on AWS EC2", m.Name)}
		}
	}
	for i, name := range in.InstanceTypes {
		got, it, err := gpu.ModelForInstanceType(name)
		if err != nil {
			return nil, &planError{[]any{"gpu", "instance_types", i}, err.Error()}
		}
		if got != m {
			return nil, &planError{[]any{"gpu", "instance_types", i}, fmt.Sprintf("%s carries %s, not %s; %s is on %s",
				name, got.Name, m.Name, m.Name, instanceTypeNames(m.InstanceTypes))}
		}
		p.InstanceTypes = append(p.InstanceTypes, it)
	}
	spec := gpu.NodeSpec{Strategy: gpu.Strategy(in.Strategy)}
	migPath := []any{"mig", "config"}
	switch {
	case in.MIGProfiles != nil:
		migPath = []any{"mig", "profiles"}
		layout := gpu.Layout(in.MIGProfiles)
		if err := gpu.ValidateLayout(m, layout); err != nil {
			return nil, &planError{migPath, err.Error()}
		}
		p.Layout = layout.String()
		spec.MIG = p.Layout
		if spec.MIG == "" {
			spec.MIG = gpu.ConfigAllEnabled
		}
	case in.MIGConfig != "":
		spec.MIG = in.MIGConfig
	}
	if in.Replicas > 0 {
		spec.TimeSlicing = &gpu.TimeSlicing{Replicas: in.Replicas}
	}
	for _, it := range p.InstanceTypes {
		spec.InstanceType = it.Name
		e, err := gpu.Expose(spec)
		if err != nil {
			return nil, &planError{migPath, err.Error()}
		}
		if p.Exposure == nil {
			p.Exposure = e
		}
	}
	if in.Strategy == string(gpu.StrategyMixed) && p.Exposure.MIG.Enabled {
		for _, it := range p.InstanceTypes[1:] {
			if it.GPUs != p.InstanceTypes[0].GPUs {
				return nil, &planError{[]any{"gpu", "instance_types"}, fmt.Sprintf("a mixed MIG pool writes one NodeOverlay "+
					"with the MIG capacity per node, so its instance types need the same GPU count: %s has %d GPUs, %s has %d; "+
					"list instance types of one size", p.InstanceTypes[0].Name, p.InstanceTypes[0].GPUs, it.Name, it.GPUs)}
			}
		}
	}
	return p, nil
}

func instanceTypeNames(its []gpu.InstanceType) string {
	names := make([]string, len(its))
	for i, it := range its {
		names[i] = it.Name
	}
	return strings.Join(names, ", ")
}

// needsOverlay reports whether Karpenter must be told the node's MIG capacity: under the mixed
// strategy pods ask for nvidia.com/mig-* resources that EC2 data does not list.
func (p *poolPlan) needsOverlay() bool {
	return p.Exposure.MIG.Enabled && p.Exposure.Strategy == gpu.StrategyMixed
}

// nodeLabels are the labels the pool writes on its nodes, besides the user's.
func (p *poolPlan) nodeLabels() map[string]string {
	out := map[string]string{labelPoolGPU: strings.ToLower(p.Model.Name)}
	if cfg, ok := p.Exposure.NodeLabels[gpu.LabelMIGConfig]; ok {
		out[gpu.LabelMIGConfig] = cfg
	}
	return out
}

// supply is what one NodePool of the pool offers: the labels a flavor selects it by and the
// most of each resource its nodes can ever expose (resources per GPU x max_gpus).
type supply struct {
	NodeLabels map[string]string
	Resources  map[string]int64
}

func (p *poolPlan) supply(pool string, c capacityInput) supply {
	s := supply{
		NodeLabels: map[string]string{
			labelPoolGPU:      strings.ToLower(p.Model.Name),
			labelCapacityType: c.Type,
			labelNodePool:     pool + "-" + c.Type,
		},
		Resources: map[string]int64{},
	}
	for r, n := range p.Exposure.ResourcesPerGPU {
		s.Resources[r] = n * c.MaxGPUs
	}
	return s
}

// overlayCapacity is the MIG capacity per node for the NodeOverlay, as resource quantities.
func (p *poolPlan) overlayCapacity() map[string]string {
	out := map[string]string{}
	for r, n := range p.Exposure.ResourcesPerNode {
		if r != gpu.ResourceGPU {
			out[r] = strconv.FormatInt(n, 10)
		}
	}
	return out
}

func (p *poolPlan) instanceTypeNames() []string {
	out := make([]string, len(p.InstanceTypes))
	for i, it := range p.InstanceTypes {
		out[i] = it.Name
	}
	sort.Strings(out)
	return out
}
