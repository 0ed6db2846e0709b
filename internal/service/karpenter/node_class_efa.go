package karpenter

import (
	"context"
	"fmt"
	"slices"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// efaInterfaces are the network interfaces AWS recommends for EFA on an instance type (EC2 User
// Guide, "Maximize network bandwidth on Amazon EC2 instances with multiple network cards"): the
// primary ENA interface on network card 0, device 0; an EFA-only interface on card 0, device 1;
// and one on device 0 of every other card. It fails for a type without EFA, and for one whose
// cards do not all support EFA, where which card lacks it is not in the catalog.
func efaInterfaces(instanceType string) ([]*awsv1.NetworkInterface, error) {
	it, ok := gpu.InstanceTypeInfo(instanceType)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s is not an EC2 GPU instance type the catalog knows", instanceType)
	case it.EFA == 0:
		return nil, fmt.Errorf("%s does not support EFA", instanceType)
	case it.EFA != it.NetworkCards:
		return nil, fmt.Errorf("%s supports %d EFA interfaces on its %d network cards, and which card lacks EFA is not "+
			"known here; set network_interfaces as the instance type's documentation says", instanceType, it.EFA, it.NetworkCards)
	}
	out := []*awsv1.NetworkInterface{{NetworkCardIndex: 0, DeviceIndex: 0, InterfaceType: awsv1.InterfaceTypeInterface}}
	for card := range it.NetworkCards {
		device := int32(0)
		if card == 0 {
			device = 1
		}
		out = append(out, &awsv1.NetworkInterface{NetworkCardIndex: int32(card), DeviceIndex: device, InterfaceType: awsv1.InterfaceTypeEFAOnly})
	}
	return out, nil
}

func sameInterfaces(a, b []*awsv1.NetworkInterface) bool {
	return slices.EqualFunc(a, b, func(x, y *awsv1.NetworkInterface) bool { return x != nil && y != nil && *x == *y })
}

// efaInstanceType refuses an instance type efaInterfaces cannot lay out.
type efaInstanceType struct{}

func (efaInstanceType) Description(context.Context) string {
	return "must be an EC2 GPU instance type with EFA on every network card"
}
func (v efaInstanceType) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (efaInstanceType) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := efaInterfaces(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid EFA instance type", fmt.Sprintf("Attribute %s: %s", req.Path, err))
	}
}
