package karpenter_test

import (
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

const nodeClassAddr = "mlplatform_node_class.test"

func nodeClassConfig(provider, name, extra string) string {
	return provider + fmt.Sprintf(`
resource "mlplatform_node_class" "test" {
  name         = %[1]q
  role         = "KarpenterNodeRole-demo"
  ami_selector = [{ alias = "al2023@latest" }]
  subnet_selector         = [{ tags = { "karpenter.sh/discovery" = "demo" } }]
  security_group_selector = [{ tags = { "karpenter.sh/discovery" = "demo" } }, { id = "sg-0123abcd" }]
  block_device = [{ device_name = "/dev/xvda", root_volume = true, volume_size = "200Gi", volume_type = "gp3", iops = 3000, throughput = 125 }]
  billing = { team = "research" }
  %[2]s
}
`, name, extra)
}

func TestAccNodeClass_lifecycle(t *testing.T) {
	name := acctest.Name("acc-node-class")
	p := acctest.ProviderBlock("", acctest.CostCentreDefault)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_node_class", karpenter.EC2NodeClassKind),
		Steps: []resource.TestStep{
			{
				Config: nodeClassConfig(p, name, `
  kubelet = { max_pods = 110, system_reserved = { cpu = "500m" }, image_gc_high_threshold_percent = 85, image_gc_low_threshold_percent = 80 }
  metadata_options = { http_put_response_hop_limit = 2 }
  tags = { project = "llm" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(nodeClassAddr, tfjsonpath.New("tags_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
						"team":                              knownvalue.StringExact("research"),
						"project":                           knownvalue.StringExact("llm"),
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(nodeClassAddr, tfjsonpath.New("metadata_options").AtMapKey("http_tokens"), knownvalue.StringExact("required")),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, karpenter.EC2NodeClassKind, "", name)
					tags := nested(t, live, "spec", "tags")
					want := map[string]any{"billing.mlplatform.io/cost-centre": "cc-1234", "team": "research", "project": "llm"}
					if !reflect.DeepEqual(tags, want) {
						return fmt.Errorf("spec.tags = %v, want %v", tags, want)
					}
					if _, found := live.Object["status"]; found {
						return fmt.Errorf("status was written: %v", live.Object["status"])
					}
					if got := nested(t, live, "spec", "kubelet", "maxPods"); got != int64(110) {
						return fmt.Errorf("spec.kubelet.maxPods = %v", got)
					}
					return nil
				},
			},
			{
				// Switch to an instance profile and drop kubelet: updated in place, removed fields gone.
				Config: nodeClassConfig(p, name, `tags = { project = "llm" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, karpenter.EC2NodeClassKind, "", name)
					if k := nested(t, live, "spec", "kubelet"); k != nil {
						return fmt.Errorf("kubelet still set: %v", k)
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
				// A tag changed outside Terraform shows as drift and is restored.
				PreConfig: func() { editSpec(t, karpenter.EC2NodeClassKind, name, "someone-else", "spec", "tags", "team") },
				Config:    nodeClassConfig(p, name, `tags = { project = "llm" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), "spec", "tags", "team"); got != "research" {
						return fmt.Errorf("team tag after drift repair = %v", got)
					}
					return nil
				},
			},
			{
				PreConfig: func() { acctest.Delete(t, karpenter.EC2NodeClassKind, "", name) },
				Config:    nodeClassConfig(p, name, `tags = { project = "llm" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

func TestNodeClass_invalidInputFailsAtPlan(t *testing.T) {
	base := func(extra string) func(string) string {
		return func(p string) string { return nodeClassConfigAMI(p, `[{ alias = "al2023@latest" }]`, extra) }
	}
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"reserved tag":     {base(`tags = { "karpenter.sh/nodepool" = "x" }`), `tag key "karpenter.sh/nodepool" is refused`},
		"cluster tag":      {base(`tags = { "kubernetes.io/cluster/demo" = "owned" }`), `kubernetes.io/cluster/\* is reserved`},
		"role and profile": {base(`instance_profile = "p"`), `Exactly one of these attributes must be configured:\s+\[role,instance_profile\]`},
		"bad alias":        {func(p string) string { return nodeClassConfigAMI(p, `[{ alias = "ubuntu@latest" }]`, "") }, `Attribute\s+ami_selector\[0\]\.alias:\s+spec\.amiSelectorTerms\[0\]\.alias:\s+Invalid\s+value:\s+"ubuntu@latest":\s+family\s+is\s+not\s+supported,\s+must\s+be\s+one\s+of\s+the\s+following:\s+'al2',\s+'al2023',\s+'bottlerocket',\s+'windows2019',\s+'windows2022',\s+'windows2025'`},
		"alias and id": {func(p string) string {
			return nodeClassConfigAMI(p, `[{ alias = "al2023@latest", id = "ami-123" }]`, "")
		}, `alias excludes every\s+other field`},
		"no family": {func(p string) string { return nodeClassConfigAMI(p, `[{ id = "ami-123" }]`, "") }, `Attribute\s+ami_family:\s+spec:\s+Invalid\s+value:\s+(?:"object":\s+)?must\s+specify\s+amiFamily\s+if\s+amiSelectorTerms\s+does\s+not\s+contain\s+an\s+alias`},
		"wrong family": {func(p string) string {
			return nodeClassConfigAMI(p, `[{ alias = "al2023@latest" }]`, `ami_family = "Bottlerocket"`)
		}, `Attribute\s+ami_family:\s+spec:\s+Invalid\s+value:\s+(?:"object":\s+)?if\s+set,\s+amiFamily\s+must\s+be\s+'AL2023'\s+or\s+'Custom'\s+when\s+using\s+an\s+AL2023\s+alias`},
		"subnet id and tags":   {base(`subnet_selector = [{ id = "subnet-1", tags = { a = "b" } }]`), `must set exactly one of id and\s+tags`},
		"two root volumes":     {base(`block_device = [{ device_name = "a", root_volume = true, volume_size = "1Gi" }, { device_name = "b", root_volume = true, volume_size = "1Gi" }]`), `Attribute\s+block_device:\s+spec\.blockDeviceMappings:\s+Invalid\s+value:\s+(?:"object":\s+)?must\s+have\s+only\s+one\s+blockDeviceMappings\s+with\s+rootVolume`},
		"bad volume size":      {base(`block_device = [{ device_name = "a", volume_size = "100" }]`), `Attribute\s+block_device\[0\]\.volume_size:\s+spec\.blockDeviceMappings\[0\]\.ebs\.volumeSize:\s+Invalid\s+value:\s+"100":\s+spec\.blockDeviceMappings\[0\]\.ebs\.volumeSize\s+in\s+body\s+should\s+match`},
		"gc thresholds":        {base(`kubelet = { image_gc_high_threshold_percent = 50, image_gc_low_threshold_percent = 60 }`), `Attribute\s+kubelet\.image_gc_high_threshold_percent:\s+spec\.kubelet:\s+Invalid\s+value:\s+imageGCHighThresholdPercent\s+\(50\)\s+must\s+be\s+greater\s+than\s+imageGCLowThresholdPercent\s+\(60\)`},
		"bad kubelet key":      {base(`kubelet = { system_reserved = { gpu = "1" } }`), `Attribute\s+kubelet\.system_reserved:\s+spec\.kubelet\.systemReserved:\s+Invalid\s+value:\s+"gpu"\s+isn't\s+a\s+reservable\s+resource,\s+must\s+be\s+one\s+of\s+cpu,\s+memory,\s+ephemeral-storage,\s+pid`},
		"negative reservation": {base(`kubelet = { kube_reserved = { cpu = "-1" } }`), `Attribute\s+kubelet\.kube_reserved\["cpu"\]:\s+spec\.kubelet\.kubeReserved\[cpu\]:\s+Invalid\s+value:\s+"-1"\s+can't\s+be\s+a\s+negative\s+resource\s+quantity`},
		"bad eviction signal":  {base(`kubelet = { eviction_hard = { "gpu.available" = "5%" } }`), `Attribute\s+kubelet\.eviction_hard:\s+spec\.kubelet\.evictionHard:\s+Invalid\s+value:\s+"gpu.available"\s+isn't\s+a\s+valid\s+eviction\s+signal`},
		"soft without grace":   {base(`kubelet = { eviction_soft = { "memory.available" = "5%" } }`), `Attribute\s+kubelet\.eviction_soft\["memory.available"\]:\s+spec\.kubelet\.evictionSoft\[memory.available\]:\s+Invalid\s+value:\s+has\s+no\s+matching\s+evictionSoftGracePeriod`},
		"windows not latest":   {func(p string) string { return nodeClassConfigAMI(p, `[{ alias = "windows2022@v1" }]`, "") }, `Attribute\s+ami_selector\[0\]\.alias:\s+spec\.amiSelectorTerms\[0\]\.alias:\s+Invalid\s+value:\s+"windows2022@v1":\s+windows\s+families\s+may\s+only\s+specify\s+version\s+'latest'`},
		"hop limit too large":  {base(`metadata_options = { http_put_response_hop_limit = 65 }`), `Attribute\s+metadata_options\.http_put_response_hop_limit:\s+spec\.metadataOptions\.httpPutResponseHopLimit:\s+Invalid\s+value:\s+65:\s+spec\.metadataOptions\.httpPutResponseHopLimit\s+in\s+body\s+should\s+be\s+less\s+than\s+or\s+equal\s+to\s+64`},
		"no primary interface": {base(`network_interfaces = [{ network_card_index = 1, device_index = 0, interface_type = "efa-only" }]`),
			`Attribute\s+network_interfaces:\s+spec\.networkInterfaces:\s+Invalid\s+value:\s+(?:"object":\s+)?networkInterfaces\s+must\s+include\s+a\s+primary\s+interface\s+with\s+interfaceType='interface'`},
		"two EFA on a card": {base(`network_interfaces = [{ network_card_index = 0, device_index = 0, interface_type = "interface" }, { network_card_index = 1, device_index = 0, interface_type = "efa-only" }, { network_card_index = 1, device_index = 1, interface_type = "efa-only" }]`),
			`network card 1 has a second efa-only interface \(the first is element 1\)`},
		"interface twice": {base(`network_interfaces = [{ network_card_index = 0, device_index = 0, interface_type = "interface" }, { network_card_index = 0, device_index = 0, interface_type = "efa-only" }]`),
			`network card 0, device 0 is also element 0`},
		"reservation id and tags": {base(`capacity_reservation_selector = [{ id = "cr-1", tags = { a = "b" } }]`), `"capacity_reservation_selector\[0\].tags" cannot be specified when\s+"capacity_reservation_selector\[0\].id" is specified`},
		"empty reservation term":  {base(`capacity_reservation_selector = [{ owner_id = "123456789012" }]`), `At least one attribute out of`},
		"placement name and id": {base(`placement_group_name = "a"
placement_group_id = "pg-1"`), `Attribute\s+placement_group_name:\s+spec\.placementGroupSelector:\s+Invalid\s+value:\s+(?:"object":\s+)?'name'\s+and\s+'id'\s+are\s+mutually\s+exclusive`},
		"rate without snapshot": {base(`block_device = [{ device_name = "a", volume_size = "1Gi", volume_initialization_rate = 200 }]`), `Attribute\s+block_device\[0\]\.volume_initialization_rate:\s+spec\.blockDeviceMappings\[0\]\.ebs:\s+Invalid\s+value:\s+(?:"object":\s+)?snapshotID\s+must\s+be\s+set\s+when\s+volumeInitializationRate\s+is\s+set`},
		"no size nor snapshot":  {base(`block_device = [{ device_name = "a" }]`), `volume_size`},
		"instance store policy": {base(`instance_store_policy = "RAID1"`), `value must be one of`},
		"udp timeout":           {base(`connection_tracking = { udp_timeout = 10 }`), `Attribute\s+connection_tracking\.udp_timeout:\s+spec\.connectionTracking\.udpTimeout:\s+Invalid\s+value:\s+10:\s+spec\.connectionTracking\.udpTimeout\s+in\s+body\s+should\s+be\s+greater\s+than\s+or\s+equal\s+to\s+30`},
		"nested virtualization": {base(`nested_virtualization = "on"`), `Attribute\s+nested_virtualization:\s+spec\.cpuOptions\.nestedVirtualization:\s+Unsupported\s+value:\s+"on"`},
		"grace period":          {base(`kubelet = { eviction_soft_grace_period = { "memory.available" = "90" } }`), `eviction_soft_grace_period\["memory.available"\] must be a\s+duration such as 1m30s`},
		"node config on bottlerocket": {func(p string) string {
			return nodeClassConfigAMI(p, `[{ alias = "bottlerocket@latest" }]`, `node_config = { cpu_manager_policy = "static" }`)
		}, `node_config is written as an AL2023 nodeadm NodeConfig, but the AMI\s+family is Bottlerocket`},
		"node config on AL2": {func(p string) string {
			return nodeClassConfigAMI(p, `[{ id = "ami-123" }]`, `ami_family = "AL2"
node_config = { cpu_manager_policy = "static" }`)
		}, `but the AMI\s+family is AL2\.`},
		"bad topology policy": {base(`node_config = { topology_manager_policy = "numa" }`), `value must be one of`},
		"EFA without EFA":     {base(`efa_instance_type = "g6e.xlarge"`), `g6e.xlarge does not support EFA`},
		"EFA on some cards":   {base(`efa_instance_type = "p6-b300.48xlarge"`), `supports 16 EFA interfaces on\s+its 17 network cards`},
		"EFA and interfaces": {base(`efa_instance_type = "p5.48xlarge"
network_interfaces = [{ network_card_index = 0, device_index = 0, interface_type = "interface" }]`), `cannot be specified when`},
	})
}

// node_config joins the user's script in a MIME document that nodeadm reads, and both read back
// on import.
func TestAccNodeClass_nodeConfig(t *testing.T) {
	name := acctest.Name("acc-node-config")
	cfg := nodeClassConfig(acctest.ProviderBlock(""), name, `
  user_data   = "#!/bin/bash\necho ready\n"
  node_config = { topology_manager_policy = "single-numa-node", topology_manager_scope = "pod", cpu_manager_policy = "static" }`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_node_class", karpenter.EC2NodeClassKind),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					ud, _ := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), "spec", "userData").(string)
					msg, err := mail.ReadMessage(strings.NewReader(ud))
					if err != nil {
						return fmt.Errorf("userData is not MIME: %w\n%s", err, ud)
					}
					_, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
					r := multipart.NewReader(msg.Body, params["boundary"])
					var contentTypes, bodies []string
					for {
						p, err := r.NextPart()
						if err != nil {
							break
						}
						b, _ := io.ReadAll(p)
						contentTypes, bodies = append(contentTypes, p.Header.Get("Content-Type")), append(bodies, string(b))
					}
					if len(contentTypes) != 2 || contentTypes[0] != "application/node.eks.aws" || !strings.HasPrefix(contentTypes[1], "text/x-shellscript") {
						return fmt.Errorf("parts %q:\n%s", contentTypes, ud)
					}
					var nodeConfig map[string]any
					if err := yaml.Unmarshal([]byte(bodies[0]), &nodeConfig); err != nil {
						return err
					}
					want := map[string]any{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig", "spec": map[string]any{
						"kubelet": map[string]any{"config": map[string]any{"topologyManagerPolicy": "single-numa-node",
							"topologyManagerScope": "pod", "cpuManagerPolicy": "static"}}}}
					if !reflect.DeepEqual(nodeConfig, want) {
						return fmt.Errorf("NodeConfig part = %v", nodeConfig)
					}
					if bodies[1] != "#!/bin/bash\necho ready\n" {
						return fmt.Errorf("script part = %q", bodies[1])
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{ResourceName: "mlplatform_node_class.test", ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "tags", "billing", "metadata_options"}}),
		},
	})
}

func nodeClassConfigAMI(p, amis, extra string) string {
	if !strings.Contains(extra, "subnet_selector") {
		extra += "\nsubnet_selector = [{ id = \"subnet-1\" }]"
	}
	return p + fmt.Sprintf(`
resource "mlplatform_node_class" "test" {
  name         = "nc"
  role         = "r"
  ami_selector = %s
  security_group_selector = [{ id = "sg-1" }]
  %s
}
`, amis, extra)
}
