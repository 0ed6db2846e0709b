package validate

import "testing"

func TestObject_nodePoolReplicasAreAnInt32(t *testing.T) {
	obj := nodePool(map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4d.24xlarge"}})
	obj["spec"].(map[string]any)["replicas"] = int64(1) << 31
	wantErrors(t, mustValidate(t, obj), `.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647`)
	obj["spec"].(map[string]any)["replicas"] = int64(1)<<31 - 1
	wantErrors(t, mustValidate(t, obj))
}
