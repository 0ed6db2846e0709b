package karpenter_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

const poolAddr = "mlplatform_gpu_node_pool.test"

func poolConfig(provider, name, body string) string {
	return poolConfigGPU(provider, name, `{ model = "a100-80gb" }`, body)
}

// poolConfigGPU is poolConfig with the gpu attribute given.
func poolConfigGPU(provider, name, gpu, body string) string {
	return provider + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %[1]q
  node_class = "gpu"
  gpu        = %[3]s
  %[2]s
}
`, name, body, gpu)
}

// poolWithClassConfig declares the node class `<name>-class` (classExtra in its body) and a pool
// launched with it.
func poolWithClassConfig(provider, name, classExtra, body string) string {
	return nodeClassConfig(provider, name+"-class", classExtra) + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %[1]q
  node_class = mlplatform_node_class.test.name
  gpu        = { model = "a100-80gb" }
  %[2]s
}
`, name, body)
}

const poolA100 = `
  mig       = { profiles = { "1g.10gb" = 7 } }
  on_demand = { max_gpus = 16 }
  spot      = { max_gpus = 32 }
  billing   = { team = "vision", project = "llm" }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  expire_after = "168h"`

const poolA100NoSpot = `
  mig       = { profiles = { "1g.10gb" = 7 } }
  on_demand = { max_gpus = 24 }
  billing   = { team = "vision", project = "llm" }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  expire_after = "168h"`

const poolA100NoBilling = `
  mig       = { profiles = { "1g.10gb" = 7 } }
  on_demand = { max_gpus = 24 }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  expire_after = "168h"`

// checkCopy checks that the pool's NodePool launches with the pool's EC2NodeClass, a copy of
// class whose tags add the billing tags, and that the copy carries class's current spec.
func checkCopy(t *testing.T, pool, class string, wantTags map[string]any) error {
	if got := nested(t, acctest.Get(t, capacity.NodePoolKind, "", pool+"-on-demand"), "spec", "template", "spec", "nodeClassRef", "name"); got != pool {
		return fmt.Errorf("nodeClassRef.name = %v, want the copy %s", got, pool)
	}
	cp, base := acctest.Get(t, karpenter.EC2NodeClassKind, "", pool), acctest.Get(t, karpenter.EC2NodeClassKind, "", class)
	if got := cp.GetAnnotations()[karpenter.AnnotationCopyOf]; got != class {
		return fmt.Errorf("copy-of annotation = %q, want %q", got, class)
	}
	if got := nested(t, cp, "spec", "tags"); !reflect.DeepEqual(got, wantTags) {
		return fmt.Errorf("copy's spec.tags = %v, want %v", got, wantTags)
	}
	cpSpec, baseSpec := nested(t, cp, "spec").(map[string]any), nested(t, base, "spec").(map[string]any)
	delete(cpSpec, "tags")
	delete(baseSpec, "tags")
	if !reflect.DeepEqual(cpSpec, baseSpec) {
		return fmt.Errorf("copy's spec = %v, want the node class's %v", cpSpec, baseSpec)
	}
	return nil
}

func TestAccGPUNodePool_lifecycle(t *testing.T) {
	name := acctest.Name("acc-a100")
	class := name + "-class"
	p := acctest.ProviderBlock("", acctest.CostCentreDefault)
	// The pool's billing is added over the node class's tags (its own billing team=research).
	copyTags := map[string]any{"billing.mlplatform.io/cost-centre": "cc-1234", "team": "vision", "project": "llm"}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name + "-spot", name + "-on-demand"} {
				if err := acctest.Gone(t, capacity.NodePoolKind, "", n); err != nil {
					return err
				}
			}
			for _, n := range []string{name, class} {
				if err := acctest.Gone(t, karpenter.EC2NodeClassKind, "", n); err != nil {
					return err
				}
			}
			return acctest.Gone(t, karpenter.NodeOverlayKind, "", name)
		},
		Steps: []resource.TestStep{
			{
				Config: poolWithClassConfig(p, name, "", poolA100),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionCreate),
					// supplies is known at plan: 7 x 1g.10gb per GPU x max_gpus.
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("spot").AtMapKey("resources"),
						knownvalue.MapExact(map[string]knownvalue.Check{"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(224)})),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("spot").AtMapKey("per_gpu"),
						knownvalue.MapExact(map[string]knownvalue.Check{"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(7)})),
					// p4de.24xlarge: Karpenter's allocatable 95690m and 1082712Mi over 8 GPUs.
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("spot").AtMapKey("cpu_milli_per_gpu"), knownvalue.Int64Exact(11961)),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("spot").AtMapKey("memory_mib_per_gpu"), knownvalue.Int64Exact(135339)),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("on-demand").AtMapKey("node_labels").AtMapKey("karpenter.sh/nodepool"),
						knownvalue.StringExact(name+"-on-demand")),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Int64Exact(8)),
				}},
				Check: func(*terraform.State) error {
					spot := acctest.Get(t, capacity.NodePoolKind, "", name+"-spot")
					if got := nested(t, spot, "spec", "limits", "nvidia.com/gpu"); got != "32" {
						return fmt.Errorf("spot limits = %v", got)
					}
					if got := nested(t, spot, "spec", "weight"); got != int64(20) {
						return fmt.Errorf("spot weight = %v", got)
					}
					if got := nested(t, spot, "spec", "template", "metadata", "labels", "nvidia.com/mig.config"); got != "all-1g.10gb" {
						return fmt.Errorf("mig.config label = %v", got)
					}
					if got := nested(t, spot, "spec", "template", "metadata", "labels", "team"); got != "vision" {
						return fmt.Errorf("billing node label team = %v", got)
					}
					if got := nested(t, spot, "spec", "template", "spec", "expireAfter"); got != "168h" {
						return fmt.Errorf("expireAfter = %v", got)
					}
					ov := acctest.Get(t, karpenter.NodeOverlayKind, "", name)
					if got := nested(t, ov, "spec", "capacity", "nvidia.com/mig-1g.10gb"); got != "56" {
						return fmt.Errorf("overlay capacity = %v", got)
					}
					return checkCopy(t, name, class, copyTags)
				},
			},
			{
				// Only the node class changes: the pool plans no change, and its copy follows the
				// class within the same apply.
				Config: poolWithClassConfig(p, name, `tags = { os = "al2023" }`+"\n"+`kubelet = { max_pods = 64 }`, poolA100),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionNoop),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), "spec", "kubelet", "maxPods"); got != int64(64) {
						return fmt.Errorf("copy's kubelet.maxPods = %v, want the class's 64", got)
					}
					return checkCopy(t, name, class, map[string]any{"billing.mlplatform.io/cost-centre": "cc-1234", "team": "vision", "project": "llm", "os": "al2023"})
				},
			},
			{
				// Change max_gpus and switch spot off: the spot NodePool is deleted.
				Config: poolWithClassConfig(p, name, "", poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand"), "spec", "limits", "nvidia.com/gpu"); got != "24" {
						return fmt.Errorf("on-demand limits = %v", got)
					}
					if err := checkCopy(t, name, class, copyTags); err != nil {
						return err
					}
					return acctest.Gone(t, capacity.NodePoolKind, "", name+"-spot")
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            poolAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "disruption.budgets"}, // imported: Karpenter's default budget
			}),
			{
				// max_gpus changed with kubectl: drift, restored.
				PreConfig: func() {
					editSpec(t, capacity.NodePoolKind, name+"-on-demand", "4", "spec", "limits", "nvidia.com/gpu")
				},
				Config: poolWithClassConfig(p, name, "", poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand"), "spec", "limits", "nvidia.com/gpu"); got != "24" {
						return fmt.Errorf("on-demand limits after drift repair = %v", got)
					}
					return nil
				},
			},
			{
				// The copy deleted outside Terraform: billing shows as drift, and the copy is restored.
				PreConfig: func() { acctest.Delete(t, karpenter.EC2NodeClassKind, "", name) },
				Config:    poolWithClassConfig(p, name, "", poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error { return checkCopy(t, name, class, copyTags) },
			},
			{
				PreConfig: func() { acctest.Delete(t, capacity.NodePoolKind, "", name+"-on-demand") },
				Config:    poolWithClassConfig(p, name, "", poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				// Billing removed: the NodePools launch with the node class itself, and the copy goes.
				Config: poolWithClassConfig(p, name, "", poolA100NoBilling),
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand"), "spec", "template", "spec", "nodeClassRef", "name"); got != class {
						return fmt.Errorf("nodeClassRef.name = %v, want %s", got, class)
					}
					return acctest.Gone(t, karpenter.EC2NodeClassKind, "", name)
				},
			},
		},
	})
}

// A pool with billing never takes over an EC2NodeClass of its name that it did not write: in one
// configuration, both are refused at plan, before anything is written (the apiserver's record of
// the refused apply's writes is empty).
func TestAccGPUNodePool_billingKeepsOtherNodeClass(t *testing.T) {
	rec := acctest.RecordWrites(t)
	name := acctest.Name("acc-taken")
	p := acctest.ProviderBlock("", rec.ProviderSetting())
	cfg := poolWithClassConfig(p, name, "", `on_demand = { max_gpus = 8 }`+"\n"+`billing = { team = "vision" }`) + fmt.Sprintf(`
resource "mlplatform_node_class" "other" {
  name         = %q
  role         = "someone-elses"
  ami_selector = [{ alias = "bottlerocket@latest" }]
  subnet_selector         = [{ id = "subnet-1" }]
  security_group_selector = [{ id = "sg-1" }]
}
`, name)
	// The pool must come after the other node class.
	cfg = strings.Replace(cfg, "node_class = mlplatform_node_class.test.name", "node_class = mlplatform_node_class.test.name\n  depends_on = [mlplatform_node_class.other]", 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`EC2NodeClass\s+` + regexp.QuoteMeta(name) + `\s+would\s+be\s+written\s+by\s+two\s+resources\s+of\s+this\s+configuration`),
		}, {
			// Nothing was written.
			Config:   p,
			PlanOnly: true,
			PreConfig: func() {
				rec.ExpectNone(t, "the refused apply")
				if err := acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand"); err != nil {
					t.Error(err)
				}
				// Refused at plan: not even the other node class was written.
				if err := acctest.Gone(t, karpenter.EC2NodeClassKind, "", name); err != nil {
					t.Error(err)
				}
			},
		}},
	})
}

func TestGPUNodePool_invalidInputFailsAtPlan(t *testing.T) {
	cfg := func(body string) func(string) string {
		return func(p string) string { return poolConfig(p, "pool", body) }
	}
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"layout does not fit":  {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { profiles = { "3g.40gb" = 2, "2g.20gb" = 1 } }`), `Attribute mig.profiles:`},
		"other model's type":   {func(p string) string { return poolConfigTypes(p, `["p5.48xlarge"]`) }, `p5.48xlarge carries\s+H100`},
		"mig and time slicing": {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { config = "all-1g.10gb" }` + "\n" + `time_slicing = { replicas = 4 }`), `(?s)mig.*time_slicing`},
		"no capacity":          {cfg(`mig = { config = "all-1g.10gb" }`), `At least one of these attributes must be configured:\s+\[spot,on_demand,reserved\]`},
		"unknown model":        {func(p string) string { return poolConfigModel(p, "z100") }, `Attribute gpu.model:`},
		"profiles and config":  {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { config = "all-1g.10gb", profiles = { "1g.10gb" = 7 } }`), `Invalid Attribute Combination`},
		"replicas below two":   {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `time_slicing = { replicas = 1 }`), `at least 2`},
		"single non-uniform":   {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { strategy = "single", profiles = { "3g.40gb" = 1, "4g.40gb" = 1 } }`), `Attribute mig.profiles:`},
		"weight out of range":  {cfg(`on_demand = { max_gpus = 8, weight = 101 }`), `between 1 and\s+100`},
		"copy over node class": {func(p string) string {
			return poolConfig(p, "gpu", `on_demand = { max_gpus = 8 }`+"\n"+`billing = { team = "a" }`)
		}, `would overwrite\s+node_class\s+"gpu"`},
		"reserved billing key": {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `billing = { "karpenter.sh/nodepool" = "x" }`), `tag key "karpenter.sh/nodepool" is refused`},
		"more types than listed": {func(p string) string {
			return strings.Replace(poolConfigTypes(p, `["p4de.24xlarge"]`), `instance_types = ["p4de.24xlarge"]`, `instance_types = ["p4de.24xlarge"], min_instance_types = 2`, 1)
		}, `gpu.min_instance_types:\s+2 instance types must be available, but the\s+pool has 1`},
		"grace period in days": {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `termination_grace_period = "1d"`), `Attribute\s+termination_grace_period:\s+spec\.template\.spec\.terminationGracePeriod:\s+Invalid\s+value:\s+"1d":\s+spec\.template\.spec\.terminationGracePeriod\s+in\s+body\s+should\s+match`},
		"negative cpu limit":   {cfg(`on_demand = { max_gpus = 8, max_cpu = "-1" }`), `on_demand.max_cpu[\s\S]*must be greater than or equal to 0`},
		"memory not quantity":  {cfg(`on_demand = { max_gpus = 8, max_memory = "lots" }`), `"lots" is not a Kubernetes quantity`},
		"EFA on a type without": {func(p string) string {
			return strings.Replace(poolConfigModel(p, "l40s"), `gpu        = { model = "l40s" }`, `gpu        = { model = "l40s", instance_types = ["g6e.xlarge"] }`+"\n  efa = true", 1)
		}, `efa:\s+g6e.xlarge does not support EFA`},
		"static with a limit":  {cfg(`reserved = { nodes = 2, max_gpus = 16 }`), `Attribute "reserved.max_gpus" cannot be specified when "reserved.nodes" is\s+specified`},
		"static with a weight": {cfg(`reserved = { nodes = 2, weight = 50 }`), `Attribute "reserved.weight" cannot be specified when "reserved.nodes" is\s+specified`},
		"static of two GPU counts": {func(p string) string {
			return strings.Replace(poolConfigModel(p, "h100"), `on_demand  = { max_gpus = 8 }`, `on_demand  = { nodes = 1 }`, 1)
		}, `on_demand.nodes:\s+a static pool needs instance types of one GPU\s+count`},
	})
}

func poolConfigTypes(p, types string) string {
	return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = { model = "a100-80gb", instance_types = %s }
  on_demand  = { max_gpus = 8 }
}
`, types)
}

func poolConfigModel(p, model string) string {
	return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = { model = %q }
  on_demand  = { max_gpus = 8 }
}
`, model)
}

// H100s come on p5.4xlarge (1 GPU) and p5.48xlarge (8): a mixed MIG pool over both writes a
// NodeOverlay per GPU count, and one named like the pool once its instance types share a count.
func TestAccGPUNodePool_overlayPerGPUCount(t *testing.T) {
	name := acctest.Name("acc-h100-mig")
	p := acctest.ProviderBlock("")
	cfg := func(gpu string) string {
		return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %[1]q
  node_class = "%[1]s-class"
  gpu        = %[2]s
  mig        = { config = "all-1g.10gb" }
  on_demand  = { max_gpus = 8 }
}
`, name, gpu)
	}
	overlay := func(n, instanceType, want string) error {
		ov := acctest.Get(t, karpenter.NodeOverlayKind, "", n)
		if got := nested(t, ov, "spec", "capacity", "nvidia.com/mig-1g.10gb"); got != want {
			return fmt.Errorf("NodeOverlay %s capacity = %v, want %s", n, got, want)
		}
		reqs := nested(t, ov, "spec", "requirements").([]any)
		if got := reqs[1].(map[string]any)["values"]; !reflect.DeepEqual(got, []any{instanceType}) {
			return fmt.Errorf("NodeOverlay %s instance types = %v, want [%s]", n, got, instanceType)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name, name + "-1gpu", name + "-8gpu"} {
				if err := acctest.Gone(t, karpenter.NodeOverlayKind, "", n); err != nil {
					return err
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(`{ model = "h100" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Null()),
				}},
				Check: func(*terraform.State) error {
					if err := overlay(name+"-1gpu", "p5.4xlarge", "7"); err != nil {
						return err
					}
					if err := overlay(name+"-8gpu", "p5.48xlarge", "56"); err != nil {
						return err
					}
					return acctest.Gone(t, karpenter.NodeOverlayKind, "", name)
				},
			},
			{
				// An overlay deleted outside Terraform: mig shows as drift, and it is restored.
				PreConfig: func() { acctest.Delete(t, karpenter.NodeOverlayKind, "", name+"-1gpu") },
				Config:    cfg(`{ model = "h100" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error { return overlay(name+"-1gpu", "p5.4xlarge", "7") },
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:      poolAddr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
				// Imported, Karpenter's defaults for disruption and expiry are read as configured.
				ImportStateVerifyIgnore: []string{"timeouts", "disruption", "expire_after"},
			}),
			{
				Config: cfg(`{ model = "h100", instance_types = ["p5.48xlarge"] }`),
				Check: func(*terraform.State) error {
					if err := overlay(name, "p5.48xlarge", "56"); err != nil {
						return err
					}
					if err := acctest.Gone(t, karpenter.NodeOverlayKind, "", name+"-1gpu"); err != nil {
						return err
					}
					return acctest.Gone(t, karpenter.NodeOverlayKind, "", name+"-8gpu")
				},
			},
		},
	})
}

// Without billing, a pool may share its name with its node class: the pool neither reads nor
// deletes an EC2NodeClass of its name that is not its copy.
func TestAccGPUNodePool_keepsNodeClassOfItsName(t *testing.T) {
	name := acctest.Name("acc-same-name")
	p := acctest.ProviderBlock("")
	class := nodeClassConfig(p, name, "")
	pool := func(maxGPUs int) string {
		return fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %q
  node_class = mlplatform_node_class.test.name
  gpu        = { model = "a100-80gb" }
  on_demand  = { max_gpus = %d }
}
`, name, maxGPUs)
	}
	classExists := func(*terraform.State) error {
		if got := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), "spec", "role"); got != "KarpenterNodeRole-demo" {
			return fmt.Errorf("node class %s role = %v", name, got)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_node_class", karpenter.EC2NodeClassKind),
		Steps: []resource.TestStep{
			{Config: class + pool(8), Check: classExists},
			{
				// An update deletes what the pool no longer needs, which does not include the node class.
				Config: class + pool(16),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionNoop),
				}},
				Check: classExists,
			},
			{
				// Destroying the pool leaves the node class.
				Config: class,
				Check: func(s *terraform.State) error {
					if err := acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand"); err != nil {
						return err
					}
					return classExists(s)
				},
			},
		},
	})
}
