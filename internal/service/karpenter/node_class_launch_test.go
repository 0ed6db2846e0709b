package karpenter_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// A training node class as the EKS GPU blueprints write it: capacity reservations first, a
// cluster placement group, EFA on the p5's network cards, the instance store as RAID0, a root
// volume from a snapshot of pre-pulled images, soft eviction; and Karpenter v1.15's Nitro Enclaves,
// nested virtualization and connection tracking. Written through the real CRD (its
// CEL rules included), read back, imported, and taken away again.
func TestAccNodeClass_launchSettings(t *testing.T) {
	name := acctest.Name("acc-node-class-launch")
	p := acctest.ProviderBlock("")
	launch := `
  capacity_reservation_selector = [{ id = "cr-0123456789abcdef0" }, { tags = { purpose = "training" }, owner_id = "123456789012", instance_match_criteria = "targeted" }]
  placement_group_name = "training-cluster"
  network_interfaces = [
    { network_card_index = 0, device_index = 0, interface_type = "interface" },
    { network_card_index = 0, device_index = 1, interface_type = "efa-only" },
    { network_card_index = 1, device_index = 0, interface_type = "efa-only" },
  ]
  associate_public_ip_address = false
  ip_prefix_count             = 2
  instance_store_policy       = "RAID0"
  detailed_monitoring         = true
  nitro_enclaves              = true
  nested_virtualization       = "disabled"
  connection_tracking         = { tcp_established_timeout = 3600, udp_timeout = 45 }
  kubelet = { eviction_soft = { "memory.available" = "5%" }, eviction_soft_grace_period = { "memory.available" = "1m30s" }, eviction_max_pod_grace_period = 600 }`
	// The root volume of nodeClassConfig, then a data volume from a snapshot.
	snapshotVolume := `[{ device_name = "/dev/xvda", root_volume = true, volume_size = "200Gi" }, { device_name = "/dev/xvdb", snapshot_id = "snap-0123456789abcdef0", volume_initialization_rate = 200 }]`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_node_class", karpenter.EC2NodeClassKind),
		Steps: []resource.TestStep{
			{
				Config: strings.Replace(nodeClassConfig(p, name, launch), "block_device = [", "block_device = "+snapshotVolume+" # ", 1),
				Check: func(*terraform.State) error {
					live := acctest.Get(t, karpenter.EC2NodeClassKind, "", name)
					for _, c := range []struct {
						path []string
						want any
					}{
						{[]string{"capacityReservationSelectorTerms"}, []any{
							map[string]any{"id": "cr-0123456789abcdef0"},
							map[string]any{"tags": map[string]any{"purpose": "training"}, "ownerID": "123456789012", "instanceMatchCriteria": "targeted"}}},
						{[]string{"placementGroupSelector"}, map[string]any{"name": "training-cluster"}},
						{[]string{"networkInterfaces"}, []any{
							map[string]any{"networkCardIndex": int64(0), "deviceIndex": int64(0), "interfaceType": "interface"},
							map[string]any{"networkCardIndex": int64(0), "deviceIndex": int64(1), "interfaceType": "efa-only"},
							map[string]any{"networkCardIndex": int64(1), "deviceIndex": int64(0), "interfaceType": "efa-only"}}},
						{[]string{"associatePublicIPAddress"}, false},
						{[]string{"ipPrefixCount"}, int64(2)},
						{[]string{"instanceStorePolicy"}, "RAID0"},
						{[]string{"detailedMonitoring"}, true},
						{[]string{"enclaveOptions"}, map[string]any{"enabled": true}},
						{[]string{"cpuOptions"}, map[string]any{"nestedVirtualization": "disabled"}},
						{[]string{"connectionTracking"}, map[string]any{"tcpEstablishedTimeout": int64(3600), "udpTimeout": int64(45)}},
						{[]string{"blockDeviceMappings"}, []any{
							map[string]any{"deviceName": "/dev/xvda", "rootVolume": true, "ebs": map[string]any{"volumeSize": "200Gi"}},
							map[string]any{"deviceName": "/dev/xvdb", "ebs": map[string]any{"snapshotID": "snap-0123456789abcdef0", "volumeInitializationRate": int64(200)}}}},
						{[]string{"kubelet", "evictionSoftGracePeriod"}, map[string]any{"memory.available": "1m30s"}},
						{[]string{"kubelet", "evictionMaxPodGracePeriod"}, int64(600)},
					} {
						if got := nested(t, live, append([]string{"spec"}, c.path...)...); !reflect.DeepEqual(got, c.want) {
							return fmt.Errorf("spec.%v = %#v, want %#v", c.path, got, c.want)
						}
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            nodeClassAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "tags", "billing", "metadata_options"},
			}),
			{
				// Dropped from the configuration, the settings leave the object.
				Config: nodeClassConfig(p, name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, karpenter.EC2NodeClassKind, "", name)
					for _, f := range []string{"capacityReservationSelectorTerms", "placementGroupSelector", "networkInterfaces", "instanceStorePolicy", "detailedMonitoring", "kubelet",
						"enclaveOptions", "cpuOptions", "connectionTracking"} {
						if v := nested(t, live, "spec", f); v != nil {
							return fmt.Errorf("spec.%s still set: %v", f, v)
						}
					}
					return nil
				},
			},
		},
	})
}
