package validate

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The core/v1 kinds, as k8s.io/kubernetes v1.35 pkg/apis/core/validation/validation.go checks
// them (its strategies in pkg/registry/core/{namespace,serviceaccount,configmap} call these).

var metaPath = field.NewPath("metadata")

// kubeObjectMeta is core validation's ValidateObjectMeta (validation.go:433): apimachinery's, then
// validateKubeFinalizerName on each finalizer. The RBAC kinds use it too.
func kubeObjectMeta(meta *metav1.ObjectMeta, namespaced bool, name metavalidation.ValidateNameFunc) field.ErrorList {
	errs := metavalidation.ValidateObjectMeta(meta, namespaced, name, metaPath)
	for i, f := range meta.Finalizers {
		errs = append(errs, kubeFinalizerName(f, metaPath.Child("finalizers").Index(i))...)
	}
	return errs
}

// kubeFinalizerName is validateKubeFinalizerName (validation.go:8184): a finalizer name without a
// '/' must be a standard one (core/helper's standardFinalizers, helpers.go:303).
func kubeFinalizerName(name string, p *field.Path) field.ErrorList {
	if strings.Contains(name, "/") {
		return nil
	}
	switch name {
	case string(corev1.FinalizerKubernetes), metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents:
		return nil
	}
	return field.ErrorList{field.Invalid(p, name, "name is neither a standard finalizer name nor is it fully qualified")}
}

// validateNamespace is ValidateNamespace (validation.go:8168) after core/v1's SetDefaults_Namespace
// (pkg/apis/core/v1/defaults.go:326), which labels the namespace with its name, and
// PrepareForCreate, which adds the "kubernetes" finalizer (a standard name).
func validateNamespace(_ context.Context, u map[string]any) (field.ErrorList, error) {
	ns, err := typed[corev1.Namespace](u)
	if err != nil {
		return nil, err
	}
	if ns.Name != "" {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[corev1.LabelMetadataName] = ns.Name
	}
	errs := kubeObjectMeta(&ns.ObjectMeta, false, metavalidation.ValidateNamespaceName)
	for _, f := range ns.Spec.Finalizers {
		// validateFinalizerName; upstream's path has no index.
		p := field.NewPath("spec", "finalizers")
		errs = append(errs, metavalidation.ValidateFinalizerName(string(f), p)...)
		errs = append(errs, kubeFinalizerName(string(f), p)...)
	}
	return errs, nil
}

// validateServiceAccount is ValidateServiceAccount (validation.go:7643).
func validateServiceAccount(_ context.Context, u map[string]any) (field.ErrorList, error) {
	sa, err := typed[corev1.ServiceAccount](u)
	if err != nil {
		return nil, err
	}
	return kubeObjectMeta(&sa.ObjectMeta, true, metavalidation.ValidateServiceAccountName), nil
}

// validateConfigMap is ValidateConfigMap (validation.go:7758): keys, a key in both data and
// binaryData, and the total size.
func validateConfigMap(_ context.Context, u map[string]any) (field.ErrorList, error) {
	cm, err := typed[corev1.ConfigMap](u)
	if err != nil {
		return nil, err
	}
	errs := kubeObjectMeta(&cm.ObjectMeta, true, metavalidation.NameIsDNSSubdomain)
	dataErrs, dataSize := dataKeys(field.NewPath("data"), cm.Data)
	binaryErrs, binarySize := dataKeys(field.NewPath("binaryData"), cm.BinaryData)
	errs = append(append(errs, dataErrs...), binaryErrs...)
	for key := range cm.Data {
		if _, dup := cm.BinaryData[key]; dup {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(key), key, "duplicate of key present in binaryData"))
		}
	}
	if dataSize+binarySize > corev1.MaxSecretSize {
		// Upstream's path "" is the whole object.
		errs = append(errs, field.TooLong(field.NewPath(""), "", corev1.MaxSecretSize))
	}
	return errs, nil
}

// validateSecret is ValidateSecret (validation.go:8088 at v1.37.2) for the type the provider writes,
// Opaque: keys and the total size of data (stringData is folded into data before validation,
// and the provider writes none).
func validateSecret(_ context.Context, u map[string]any) (field.ErrorList, error) {
	secret, err := typed[corev1.Secret](u)
	if err != nil {
		return nil, err
	}
	if secret.Type != "" && secret.Type != corev1.SecretTypeOpaque {
		return nil, fmt.Errorf("the engine checks Secrets of type %s only, not %s", corev1.SecretTypeOpaque, secret.Type)
	}
	errs, size := dataKeys(field.NewPath("data"), secret.Data)
	errs = append(kubeObjectMeta(&secret.ObjectMeta, true, metavalidation.NameIsDNSSubdomain), errs...)
	if size > corev1.MaxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath("data"), "", corev1.MaxSecretSize))
	}
	return errs, nil
}

// dataKeys checks the keys of a ConfigMap's or Secret's data at p as upstream does (both take
// ConfigMap keys), and returns the data's size in bytes.
func dataKeys[V string | []byte](p *field.Path, data map[string]V) (errs field.ErrorList, size int) {
	for key, value := range data {
		for _, msg := range validation.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(p.Key(key), key, msg))
		}
		size += len(value)
	}
	return errs, size
}
