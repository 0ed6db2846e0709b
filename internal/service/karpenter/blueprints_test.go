package karpenter_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// blueprintObject is one object a published blueprint declares: the object the HCL writes for it,
// and the blueprint's field values, written here by hand from the YAML file the HCL names.
type blueprintObject struct {
	kind kube.Kind
	name string
	want map[string]any
}

// blueprints are the HCL files in examples/blueprints and what each must reproduce. The README's
// "From blueprint to HCL" shows the same files and lists the differences.
var blueprints = map[string][]blueprintObject{
	// aws-samples/karpenter-blueprints@529b88cf blueprints/static-nodepool/static-nodeclass.yaml
	// and static-nodepool.yaml.
	"karpenter-blueprints-static-nodepool.tf": {
		{karpenter.EC2NodeClassKind, "gpu-static", map[string]any{"spec": map[string]any{
			"amiSelectorTerms": []any{map[string]any{"alias": "bottlerocket@latest"}},
			"role":             "KarpenterNodeRole-demo",
			"networkInterfaces": []any{
				map[string]any{"networkCardIndex": 0, "deviceIndex": 0, "interfaceType": "interface"},
				map[string]any{"networkCardIndex": 0, "deviceIndex": 1, "interfaceType": "efa-only"},
			},
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"subnetSelectorTerms":        []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"instanceStorePolicy":        "RAID0",
		}}},
		// The blueprint's NodePool gpu-static, as the pool's on-demand NodePool.
		{capacity.NodePoolKind, "gpu-static-on-demand", map[string]any{"spec": map[string]any{
			"replicas": 1,
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{
					"capacity-type": "gpu-static", "nvidia.com/gpu.present": "true", "vpc.amazonaws.com/efa.present": "true",
				}},
				"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "name": "gpu-static", "kind": "EC2NodeClass"},
					"requirements": []any{
						map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"g6e.8xlarge"}},
					},
					"expireAfter": "Never",
					"taints":      []any{map[string]any{"key": "nvidia.com/gpu", "effect": "NoSchedule"}},
				},
			},
		}}},
	},
	// aws-samples/karpenter-blueprints@529b88cf blueprints/reserved-capacity/odcr.yaml, the EC2NodeClass.
	"karpenter-blueprints-reserved-capacity.tf": {
		{karpenter.EC2NodeClassKind, "odcr-nodeclass", map[string]any{"spec": map[string]any{
			"amiSelectorTerms":           []any{map[string]any{"alias": "al2023@latest"}},
			"role":                       "KarpenterNodeRole-demo",
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"subnetSelectorTerms":        []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"capacityReservationSelectorTerms": []any{
				map[string]any{"tags": map[string]any{"intent": "apps", "project": "demo"}},
			},
		}}},
	},
}

// Each blueprint's HCL applies, and the objects it writes carry the blueprint's field values.
func TestAccBlueprints(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../../examples/blueprints/*.tf")
	if len(files) != len(blueprints) {
		t.Fatalf("examples/blueprints has %d files, the test knows %d", len(files), len(blueprints))
	}
	for _, f := range files {
		hcl, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objects, ok := blueprints[filepath.Base(f)]
		if !ok {
			t.Fatalf("%s: no expected values", f)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			if !strings.Contains(string(readme), string(hcl)) {
				t.Errorf("README.md does not show %s as it is", f)
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { acctest.RequireOwnCluster(t) }, // fixed names
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				Steps: []resource.TestStep{{
					Config: providerBlock("") + string(hcl),
					Check: func(*terraform.State) error {
						for _, o := range objects {
							if err := contains(o.want, acctest.Get(t, o.kind, "", o.name).Object, o.name); err != nil {
								return err
							}
						}
						return nil
					},
				}},
			})
		})
	}
}

// contains reports where got lacks a value of want: maps hold want's keys, lists hold an element
// containing each of want's elements (the provider's objects add requirements and labels), and
// scalars are equal.
func contains(want, got any, at string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s = %v, want an object", at, got)
		}
		for k, v := range w {
			if err := contains(v, g[k], at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s = %v, want a list", at, got)
		}
		for i, v := range w {
			found := false
			for _, e := range g {
				found = found || contains(v, e, at) == nil
			}
			if !found {
				return fmt.Errorf("%s has no element like %v (blueprint's [%d]): %v", at, v, i, g)
			}
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Errorf("%s = %v, want %v", at, got, want)
		}
	}
	return nil
}
