package karpenter

import (
	"context"
	"reflect"
	"strings"
	"testing"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
)

// specAttributes is where each field of the EC2NodeClass v1 spec goes in mlplatform_node_class.
var specAttributes = map[string]string{
	"subnetSelectorTerms": "subnet_selector", "securityGroupSelectorTerms": "security_group_selector",
	"capacityReservationSelectorTerms": "capacity_reservation_selector", "placementGroupSelector": "placement_group_name",
	"associatePublicIPAddress": "associate_public_ip_address", "ipPrefixCount": "ip_prefix_count",
	"amiSelectorTerms": "ami_selector", "amiFamily": "ami_family", "userData": "user_data", "role": "role",
	"instanceProfile": "instance_profile", "tags": "tags", "kubelet": "kubelet", "blockDeviceMappings": "block_device",
	"instanceStorePolicy": "instance_store_policy", "networkInterfaces": "network_interfaces",
	"detailedMonitoring": "detailed_monitoring", "metadataOptions": "metadata_options", "context": "context",
	"enclaveOptions": "nitro_enclaves", "cpuOptions": "nested_virtualization", "connectionTracking": "connection_tracking",
}

// Every field of the pinned EC2NodeClass spec, of its kubelet map that Karpenter reads (the others
// pass through to the AMI family's kubelet config) and of its EBS volumes can be written: a Karpenter upgrade that adds one fails here until the resource gains it.
func TestNodeClass_everySpecFieldExpressible(t *testing.T) {
	s := nodeClass{}.Schema(context.Background())
	for _, f := range jsonFields(reflect.TypeFor[awsv1.EC2NodeClassSpec]()) {
		a, ok := specAttributes[f]
		if !ok {
			t.Errorf("spec.%s has no attribute in mlplatform_node_class", f)
			continue
		}
		if _, ok := s.Attributes[a]; !ok {
			t.Errorf("spec.%s: attribute %s is not in the schema", f, a)
		}
	}
	kubelet := kubeletAttribute().Attributes
	for _, f := range jsonFields(reflect.TypeFor[awsv1.ParsedKubeletConfig]()) {
		if _, ok := kubelet[snake(f)]; !ok {
			t.Errorf("spec.kubelet.%s has no attribute kubelet.%s", f, snake(f))
		}
	}
	volume := blockDeviceAttribute().NestedObject.Attributes
	for _, f := range jsonFields(reflect.TypeFor[awsv1.BlockDevice]()) {
		if _, ok := volume[snake(f)]; !ok {
			t.Errorf("spec.blockDeviceMappings[].ebs.%s has no attribute block_device[].%s", f, snake(f))
		}
	}
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// snake turns a JSON field name into the attribute's: clusterDNS -> cluster_dns, kmsKeyID ->
// kms_key_id, cpuCFSQuota -> cpu_cfs_quota, iops -> iops.
func snake(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i, c := range r {
		upper := c >= 'A' && c <= 'Z'
		if upper && i > 0 && (r[i-1] < 'A' || r[i-1] > 'Z' || (i+1 < len(r) && r[i+1] >= 'a' && r[i+1] <= 'z')) {
			b.WriteByte('_')
		}
		b.WriteRune(c)
	}
	return strings.ToLower(b.String())
}
