package nvidia

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// The config file of NVIDIA's Kubernetes device plugin, one per key of the ConfigMap the GPU
// Operator is pointed at with `devicePlugin.config.name`; a node picks a key with the label
// nvidia.com/device-plugin.config (else `devicePlugin.config.default`). NVIDIA/k8s-device-plugin
// is not on the Go module proxy, so these are minimal copies of its api/config/v1 types at
// NVIDIA/k8s-device-plugin@1b826acc (see /work/shared/reference/gpu_reference.yaml):
//   - config.go: Config{Version, Flags, Sharing};
//   - flags.go: Flags.MigStrategy (`migStrategy`);
//   - sharing.go: Sharing.TimeSlicing;
//   - replicas.go: TimeSlicing{RenameByDefault, FailRequestsGreaterThanOne, Resources} and
//     ReplicatedResource{Name, Rename, Replicas} ("number of replicas must be >= 2");
//   - consts.go: DefaultSharedResourceNameSuffix ".shared", MaxResourceNameLength 63.

const (
	devicePluginVersion = "v1" // Config.Version: the only value the device plugin accepts
	// minReplicas is ReplicatedResource.UnmarshalJSON's lower bound.
	minReplicas = 2
	// maxResourceNameLength bounds a fully qualified resource name (consts.go).
	maxResourceNameLength = 63
	// sharedSuffix is what renameByDefault appends (DefaultSharedResourceNameSuffix).
	sharedSuffix = ".shared"
)

// migStrategies are the values of Flags.MigStrategy (consts.go MigStrategyNone/Single/Mixed).
var migStrategies = []string{"none", "single", "mixed"}

// devicePluginConfig is the device plugin's Config with only the fields the provider writes.
type devicePluginConfig struct {
	Version string              `json:"version"`
	Flags   *devicePluginFlags  `json:"flags,omitempty"`
	Sharing devicePluginSharing `json:"sharing"`
}

type devicePluginFlags struct {
	MigStrategy *string `json:"migStrategy,omitempty"`
}

type devicePluginSharing struct {
	TimeSlicing devicePluginTimeSlicing `json:"timeSlicing"`
}

// devicePluginTimeSlicing is replicas.go's TimeSlicing. Both flags are written even when false,
// as NVIDIA's examples do, so a reader of the ConfigMap sees them.
type devicePluginTimeSlicing struct {
	RenameByDefault            bool                   `json:"renameByDefault"`
	FailRequestsGreaterThanOne bool                   `json:"failRequestsGreaterThanOne"`
	Resources                  []devicePluginReplicas `json:"resources"`
}

// devicePluginReplicas is replicas.go's ReplicatedResource without `devices`, which current
// device plugins ignore (cmd/nvidia-device-plugin: DisableResourceNamingInConfig).
type devicePluginReplicas struct {
	Name     string `json:"name"`
	Rename   string `json:"rename,omitempty"`
	Replicas int64  `json:"replicas"`
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
	if len(c.Sharing.TimeSlicing.Resources) == 0 {
		return c, fmt.Errorf("sharing.timeSlicing has no resources")
	}
	return c, nil
}
