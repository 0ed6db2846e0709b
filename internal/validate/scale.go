package validate

import (
	"fmt"
	"math"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateScale is the apiserver's check of a kind with a scale subresource (a NodePool's
// spec.replicas): its replicas are an int32 whatever the schema allows (ValidateScaleSpec in
// apiextensions-apiserver's pkg/registry/customresource, not exported). Its status half is moot
// on create, which drops status.
func validateScale(u map[string]any, specReplicasPath string) field.ErrorList {
	if specReplicasPath == "" {
		return nil
	}
	replicas, _, err := unstructured.NestedInt64(u, strings.Split(strings.TrimPrefix(specReplicasPath, "."), ".")...)
	at := field.NewPath(specReplicasPath)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(at, replicas, err.Error())}
	case replicas < 0:
		return field.ErrorList{field.Invalid(at, replicas, "should be a non-negative integer")}
	case replicas > math.MaxInt32:
		return field.ErrorList{field.Invalid(at, replicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}
