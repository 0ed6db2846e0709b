package gpu

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Model is one GPU model as the provider knows it. The data lives in the
// catalog_*.go files; callers get read-only pointers from Lookup or Models.
type Model struct {
	// Name is the canonical name, e.g. "A100-SXM4-80GB".
	Name string
	// Aliases are the other names people use; Lookup accepts any of them,
	// case-insensitively, and also Name and ProductLabel.
	Aliases []string
	// Architecture is informational, e.g. "Ampere", "Hopper".
	Architecture string
	// MemoryGB is the nominal memory per GPU as NVIDIA names it (80 for A100 80GB).
	MemoryGB int
	// ProductLabel is the value GPU Feature Discovery writes to
	// nvidia.com/gpu.product for a full (non-MIG) GPU: the NVML device name
	// with spaces replaced by "-", e.g. "NVIDIA-A100-SXM4-80GB". Two models
	// share it (and their PCIDeviceIDs) only when one GPU has reported two
	// sets of MIG profile names (GB200); the first in the catalog answers
	// Lookup and ModelForPCIDeviceIDs for them.
	ProductLabel string
	// KarpenterGPUName is the karpenter.k8s.aws/instance-gpu-name value on AWS
	// (lower-case EC2 GPU name, e.g. "a100"); empty if not offered on AWS or not
	// known (GB200: see p6e-gb200.36xlarge in instance_types.go).
	// Several models can share it (A100 40GB and 80GB are both "a100").
	KarpenterGPUName string
	// KarpenterGPUMemoryMiB is the karpenter.k8s.aws/instance-gpu-memory value
	// (MiB per GPU, as EC2 reports it); 0 when KarpenterGPUName is empty.
	KarpenterGPUMemoryMiB int64
	// PCIDeviceIDs are the "device id + vendor id" strings mig-parted matches
	// in a config's device-filter, e.g. "0x20B210DE". Only set for MIG models.
	PCIDeviceIDs []string
	// ComputeSlices and MemorySlices describe the MIG geometry of one GPU
	// (7 and 8 on A100/H100/H200/B200, 4 and 4 on A30); 0 if not MIG-capable.
	ComputeSlices int
	MemorySlices  int
	// MIG lists the GPU instance profiles, smallest first; empty if the
	// model does not support MIG.
	MIG []Profile
	// Balanced is mig-parted's "all-balanced" layout for this model, or nil.
	Balanced Layout
	// NamedConfigCounts are the instance counts of mig-parted's all-<profile>
	// configs where they are not the profile's maximum, keyed by profile; 0 where
	// NVIDIA's config has no all-<profile> for this GPU.
	NamedConfigCounts map[string]int
	// InstanceTypes are the AWS EC2 instance types carrying this GPU.
	InstanceTypes []InstanceType
}

// Profile is one MIG GPU instance profile of a model.
type Profile struct {
	// Name as nvidia-smi and mig-parted spell it, e.g. "1g.10gb" or "1g.10gb+me".
	Name string
	// GIProfileID is the NVML GPU instance profile ID (nvidia-smi mig -lgip).
	GIProfileID int
	// ComputeSlices is the "Ng" of the name.
	ComputeSlices int
	// MemorySlices is how many memory slices one instance occupies (its
	// placement size); 3g profiles take 4 of 8 on 7-slice GPUs.
	MemorySlices int
	// MemoryGB is the "Ngb" of the name.
	MemoryGB int
	// MaxInstances is how many instances of this profile alone fit on one GPU.
	MaxInstances int
	// Starts are the memory-slice indexes where an instance may begin.
	Starts []int
	// MediaExtensions is true for "+me" and "+me.all" profiles, which hold the
	// GPU's one set of media extensions (OFA): a GPU has at most one of them.
	MediaExtensions bool
	// AllMediaEngines is true for "+me.all": the instance takes every decoder,
	// encoder and JPEG engine, so the other instances must be "-me" ones.
	AllMediaEngines bool
	// NoMediaEngines is true for "-me" profiles (pure compute).
	NoMediaEngines bool
	// Graphics is true for "+gfx" profiles (graphics APIs in the instance).
	Graphics bool
}

// MIGCapable reports whether the model supports MIG.
func (m *Model) MIGCapable() bool { return len(m.MIG) > 0 }

// Profile returns the named MIG profile of the model. "+" may also be
// written "." (the spelling used in resource and config names: "1g.10gb.me").
func (m *Model) Profile(name string) (*Profile, error) {
	want := normalizeProfileName(name)
	for i := range m.MIG {
		if m.MIG[i].Name == want {
			return &m.MIG[i], nil
		}
	}
	if !m.MIGCapable() {
		return nil, fmt.Errorf("%s does not support MIG", m.Name)
	}
	return nil, errors.New(m.unknownProfile(name))
}

// unknownProfile says that m has no MIG profile name: m's profiles, the models whose profile it
// is, and m's profile that takes the same share of a GPU (compute and memory slices, media
// engines, graphics), e.g. "1g.5gb" is the A100-40GB's, and on the A100-80GB that share is 1g.10gb.
func (m *Model) unknownProfile(name string) string {
	msg := fmt.Sprintf("%s has no MIG profile %q; its profiles are %s", m.Name, name, strings.Join(m.ProfileNames(), ", "))
	want := normalizeProfileName(name)
	var owners, equivalents []string
	for _, o := range Models() {
		for _, p := range o.MIG {
			if p.Name != want {
				continue
			}
			owners = append(owners, o.Name)
			if q := m.sameShare(o, p); q != nil && !slices.Contains(equivalents, q.Name) {
				equivalents = append(equivalents, q.Name)
			}
		}
	}
	if len(owners) == 0 {
		return msg
	}
	msg += fmt.Sprintf(". %q is a profile of %s", name, strings.Join(owners, ", "))
	if len(equivalents) > 0 {
		msg += fmt.Sprintf("; on the %s the same share of a GPU is %s", m.Name, strings.Join(equivalents, " or "))
	}
	return msg
}

// sameShare is m's profile that takes the share of a GPU that p takes of one of o's (the same
// fraction of its compute and of its memory slices) and is of p's kind (media engines, graphics),
// or nil.
func (m *Model) sameShare(o *Model, p Profile) *Profile {
	oc, om := o.slices()
	mc, mm := m.slices()
	for i, q := range m.MIG {
		if q.ComputeSlices*oc == p.ComputeSlices*mc && q.MemorySlices*om == p.MemorySlices*mm &&
			q.MediaExtensions == p.MediaExtensions && q.AllMediaEngines == p.AllMediaEngines &&
			q.NoMediaEngines == p.NoMediaEngines && q.Graphics == p.Graphics {
			return &m.MIG[i]
		}
	}
	return nil
}

// slices are how many compute and memory slices the model's GPU has: those of its largest profile.
func (m *Model) slices() (compute, memory int) {
	for _, p := range m.MIG {
		compute, memory = max(compute, p.ComputeSlices), max(memory, p.MemorySlices)
	}
	return compute, memory
}

// ProfileNames lists the model's MIG profile names, smallest first.
func (m *Model) ProfileNames() []string {
	names := make([]string, len(m.MIG))
	for i, p := range m.MIG {
		names[i] = p.Name
	}
	return names
}

// ResourceName is the extended resource the device plugin advertises for
// this profile under the mixed strategy: "nvidia.com/mig-" + name with "+"
// replaced by "." (k8s-device-plugin internal/resource/nvml-mig-device.go).
func (p Profile) ResourceName() string {
	return migResourcePrefix + dotted(p.Name)
}

// Models returns every model in the catalog, in catalog order.
func Models() []*Model { return catalog.models }

// Lookup finds a model by canonical name, alias or product label,
// case-insensitively; spaces and underscores count as "-".
func Lookup(alias string) (*Model, error) {
	if m, ok := catalog.byAlias[normalizeAlias(alias)]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown GPU model %q; known models: %s",
		alias, strings.Join(catalog.names(), ", "))
}

// ModelForInstanceType returns the model and GPU count of an AWS instance type.
func ModelForInstanceType(it string) (*Model, InstanceType, error) {
	key := strings.ToLower(strings.TrimSpace(it))
	for _, m := range catalog.models {
		for _, t := range m.InstanceTypes {
			if t.Name == key {
				return m, t, nil
			}
		}
	}
	return nil, InstanceType{}, fmt.Errorf("instance type %q has no GPU model in the catalog; known GPU instance types: %s",
		it, strings.Join(catalog.instanceTypeNames(), ", "))
}

type catalogIndex struct {
	models  []*Model
	byAlias map[string]*Model
}

// catalog indexes the per-family tables. Building it panics on a duplicate
// alias so that an ambiguous name can never resolve by accident.
var catalog = buildCatalog(ampereModels(), hopperModels(), blackwellModels(), migOnlyModels(), inferenceModels())

func buildCatalog(families ...[]*Model) catalogIndex {
	c := catalogIndex{byAlias: map[string]*Model{}}
	for _, fam := range families {
		for _, m := range fam {
			c.models = append(c.models, m)
			for _, a := range append([]string{m.Name, m.ProductLabel}, m.Aliases...) {
				k := normalizeAlias(a)
				if prev, dup := c.byAlias[k]; dup && prev != m && a == m.ProductLabel && prev.ProductLabel == a {
					continue // a shared product label stays with the first model (see Model)
				}
				if prev, dup := c.byAlias[k]; dup && prev != m {
					panic(fmt.Sprintf("gpu catalog: alias %q used by %s and %s", a, prev.Name, m.Name))
				}
				c.byAlias[k] = m
			}
		}
	}
	return c
}

func (c catalogIndex) names() []string {
	out := make([]string, len(c.models))
	for i, m := range c.models {
		out[i] = m.Name
	}
	return out
}

func (c catalogIndex) instanceTypeNames() []string {
	var out []string
	for _, m := range c.models {
		for _, t := range m.InstanceTypes {
			out = append(out, t.Name)
		}
	}
	sort.Strings(out)
	return out
}

func normalizeAlias(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer(" ", "-", "_", "-").Replace(s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	return s
}
