package gpu

import "testing"

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
