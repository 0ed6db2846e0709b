package gpu

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The models' instance types and the EC2 table agree on which GPU each carries, and every row
// leaves pods less than the instance has.
func TestInstanceTypes_agreeWithModels(t *testing.T) {
	for _, m := range Models() {
		for _, it := range m.InstanceTypes {
			if it.GPUName != m.KarpenterGPUName {
				t.Errorf("%s: %s carries %q per EC2, the model is %q", m.Name, it.Name, it.GPUName, m.KarpenterGPUName)
			}
			if it.GPUMemoryMiB != m.KarpenterGPUMemoryMiB {
				t.Errorf("%s: %s has %d MiB per GPU per EC2, the model %d", m.Name, it.Name, it.GPUMemoryMiB, m.KarpenterGPUMemoryMiB)
			}
		}
	}
	seen := map[string]bool{}
	for _, it := range ec2InstanceTypes {
		if seen[it.Name] {
			t.Errorf("%s is listed twice", it.Name)
		}
		seen[it.Name] = true
		if it.GPUs < 1 || it.VCPUs < 1 || it.AllocatableCPUMilli <= 0 || it.AllocatableCPUMilli > int64(it.VCPUs)*1000 ||
			it.AllocatableMemoryMiB <= 0 || it.AllocatableMemoryMiB > it.MemoryMiB {
			t.Errorf("%s: implausible row %+v", it.Name, it)
		}
	}
}

func TestInstanceType_PerGPU(t *testing.T) {
	for _, c := range []struct {
		name          string
		cpu, memoryMi int64
	}{
		{"p4de.24xlarge", 11961, 135339}, // 95690m and 1082712Mi over 8 GPUs
		{"p5.4xlarge", 15890, 240830},    // one GPU: all of it
		{"g5.12xlarge", 11952, 43350},    // 47810m and 173400Mi over 4
	} {
		it, ok := InstanceTypeInfo(c.name)
		if !ok {
			t.Fatalf("%s missing", c.name)
		}
		if cpu, mem := it.PerGPU(); cpu != c.cpu || mem != c.memoryMi {
			t.Errorf("%s per GPU = %dm, %dMi; want %dm, %dMi", c.name, cpu, mem, c.cpu, c.memoryMi)
		}
	}
}

// NetworkCards agrees with the generated VPC limits of the karpenter-provider-aws module go.mod
// requires, for every type that file lists, and each type has at least as many cards as EFA
// interfaces (one EFA interface per card).
func TestInstanceTypes_networkCardsMatchVPCLimits(t *testing.T) {
	for _, it := range ec2InstanceTypes {
		if it.NetworkCards < 1 || it.EFA > it.NetworkCards {
			t.Errorf("%s: %d network cards for %d EFA interfaces", it.Name, it.NetworkCards, it.EFA)
		}
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/aws/karpenter-provider-aws").Output()
	if err != nil {
		t.Skipf("cannot locate the module: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "pkg", "providers", "instancetype", "zz_generated.vpclimits.go"))
	if err != nil {
		t.Fatal(err)
	}
	entry := regexp.MustCompile(`(?s)\n\t"([^"]+)": \{(.*?)\n\t\},`)
	cards := map[string]int{}
	for _, m := range entry.FindAllStringSubmatch(string(src), -1) {
		cards[m[1]] = strings.Count(m[2], "\n\t\t\t\tNetworkCardIndex:")
	}
	if len(cards) < 100 {
		t.Fatalf("read only %d instance types from the VPC limits; has the file's layout changed?", len(cards))
	}
	for _, it := range ec2InstanceTypes {
		n, ok := cards[it.Name]
		switch {
		case !ok && it.Name != "p6e-gb200.36xlarge": // in no VPC limits (its row says why)
			t.Errorf("%s is not in the VPC limits of the pinned karpenter-provider-aws", it.Name)
		case ok && n != it.NetworkCards:
			t.Errorf("%s: %d network cards, the VPC limits say %d", it.Name, it.NetworkCards, n)
		}
	}
}
