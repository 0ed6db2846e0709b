package nvidia

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// The config file of NVIDIA's Kubernetes device plugin, one per key of the ConfigMap the GPU
// Operator is pointed at with `devicePlugin.config.name`; a node picks a key with the label
// nvidia.com/device-plugin.config (else `devicePlugin.config.default`). NVIDIA/k8s-device-plugin
// is not on the Go module proxy, so these are minimal copies of its api/config/v1 types at
// NVIDIA/k8s-device-plugin@1b826acc (2026-08-19; see /work/shared/reference/gpu_reference.yaml):
//   - config.go: Config{Version, Flags, Sharing}; an MPS config without failRequestsGreaterThanOne
//     gets true;
//   - flags.go: Flags (migStrategy, failOnInitError, nvidiaDriverRoot, plugin.passDeviceSpecs,
//     plugin.deviceListStrategy as one string or a list, plugin.deviceIDStrategy);
//   - sharing.go: Sharing{TimeSlicing, MPS}, MPS taking precedence;
//   - replicas.go: ReplicatedResources{RenameByDefault, FailRequestsGreaterThanOne, Resources} and
//     ReplicatedResource{Name, Rename, Replicas} ("number of replicas must be >= 2");
//   - consts.go: DefaultSharedResourceNameSuffix ".shared", MaxResourceNameLength 63;
//   - cmd/nvidia-device-plugin/main.go validateFlags: the device list and ID strategies, and
//     "using --mig-strategy=mixed is not supported with MPS";
//   - README "With CUDA MPS": only nvidia.com/gpu, on full GPUs.

const (
	devicePluginVersion = "v1" // Config.Version: the only value the device plugin accepts
	// minReplicas is ReplicatedResource.UnmarshalJSON's lower bound.
	minReplicas = 2
	// maxResourceNameLength bounds a fully qualified resource name (consts.go).
	maxResourceNameLength = 63
	// sharedSuffix is what renameByDefault appends (DefaultSharedResourceNameSuffix).
	sharedSuffix = ".shared"
	// Sharing strategies, as the node label nvidia.com/gpu.sharing-strategy spells them.
	sharingTimeSlicing = "time-slicing"
	sharingMPS         = "mps"
)

var (
	// migStrategies are the values of Flags.MigStrategy (consts.go MigStrategyNone/Single/Mixed).
	migStrategies = []string{"none", "single", "mixed"}
	// deviceListStrategies and deviceIDStrategies are what validateFlags accepts.
	deviceListStrategies = []string{"envvar", "volume-mounts", "cdi-annotations", "cdi-cri"}
	deviceIDStrategies   = []string{"uuid", "index"}
)

// devicePluginConfig is the device plugin's Config with only the fields the provider writes.
type devicePluginConfig struct {
	Version string               `json:"version"`
	Flags   *devicePluginFlags   `json:"flags,omitempty"`
	Sharing *devicePluginSharing `json:"sharing,omitempty"`
}

type devicePluginFlags struct {
	MigStrategy      *string                  `json:"migStrategy,omitempty"`
	FailOnInitError  *bool                    `json:"failOnInitError,omitempty"`
	NvidiaDriverRoot *string                  `json:"nvidiaDriverRoot,omitempty"`
	Plugin           *devicePluginPluginFlags `json:"plugin,omitempty"`
}

type devicePluginPluginFlags struct {
	PassDeviceSpecs    *bool              `json:"passDeviceSpecs,omitempty"`
	DeviceListStrategy deviceListStrategy `json:"deviceListStrategy,omitempty"`
	DeviceIDStrategy   *string            `json:"deviceIDStrategy,omitempty"`
}

// deviceListStrategy is one strategy or a list of them, as flags.go's deviceListStrategyFlag reads it.
type deviceListStrategy []string

func (d *deviceListStrategy) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*d = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("invalid deviceListStrategy: %s", b)
	}
	*d = many
	return nil
}

type devicePluginSharing struct {
	TimeSlicing *devicePluginReplicated `json:"timeSlicing,omitempty"`
	MPS         *devicePluginReplicated `json:"mps,omitempty"`
}

// devicePluginReplicated is replicas.go's ReplicatedResources. Time-slicing writes both flags
// even when false, as NVIDIA's examples do; MPS leaves failRequestsGreaterThanOne out unless set,
// so that the device plugin's default (true) applies.
type devicePluginReplicated struct {
	RenameByDefault            bool                   `json:"renameByDefault"`
	FailRequestsGreaterThanOne *bool                  `json:"failRequestsGreaterThanOne,omitempty"`
	Resources                  []devicePluginReplicas `json:"resources"`
}

// devicePluginReplicas is replicas.go's ReplicatedResource without `devices`, which current
// device plugins ignore (cmd/nvidia-device-plugin: DisableResourceNamingInConfig).
type devicePluginReplicas struct {
	Name     string `json:"name"`
	Rename   string `json:"rename,omitempty"`
	Replicas int64  `json:"replicas"`
}

// strategy returns the sharing the config sets ("" for none) and its resources, MPS first as
// sharing.go's ReplicatedResources has it.
func (c devicePluginConfig) strategy() (string, *devicePluginReplicated) {
	switch {
	case c.Sharing == nil:
		return "", nil
	case c.Sharing.MPS != nil:
		return sharingMPS, c.Sharing.MPS
	case c.Sharing.TimeSlicing != nil:
		return sharingTimeSlicing, c.Sharing.TimeSlicing
	}
	return "", nil
}

func marshalDevicePlugin(c devicePluginConfig) (string, error) {
	b, err := yaml.Marshal(c)
	return string(b), err
}

// parseDevicePlugin reads a device plugin config as the plugin would, refusing what it refuses.
func parseDevicePlugin(text string) (devicePluginConfig, error) {
	var c devicePluginConfig
	if err := yaml.Unmarshal([]byte(text), &c); err != nil {
		return c, err
	}
	if c.Version != devicePluginVersion {
		return c, fmt.Errorf("version is %q, the device plugin only reads %q", c.Version, devicePluginVersion)
	}
	if s, r := c.strategy(); r != nil && len(r.Resources) == 0 {
		return c, fmt.Errorf("sharing.%s has no resources", map[string]string{sharingMPS: "mps", sharingTimeSlicing: "timeSlicing"}[s])
	}
	return c, nil
}
