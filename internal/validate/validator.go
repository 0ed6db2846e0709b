package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// kindValidator is what the apiserver builds for one version of a CRD when it starts serving it
// (pkg/apiserver/customresource_handler.go, pkg/registry/customresource/strategy.go).
type kindValidator struct {
	namespaced bool
	hasStatus  bool
	structural *structuralschema.Structural
	schema     apiservervalidation.SchemaValidator
	cel        *cel.Validator // nil when the schema has no CEL rules

	specReplicasPath string // the scale subresource's, "" without one
}

// lazyKind compiles a kindValidator on first use, once per process.
type lazyKind struct {
	once sync.Once
	v    *kindValidator
	err  error
}

var compiled sync.Map // schema.GroupVersionKind -> *lazyKind

// validatorFor is the compiled validator of gvk, or nil when the engine has no CRD for it.
func validatorFor(gvk schema.GroupVersionKind) (*kindValidator, error) {
	src, ok := sources()[gvk.GroupKind()]
	if !ok {
		return nil, nil
	}
	l, _ := compiled.LoadOrStore(gvk, &lazyKind{})
	lk := l.(*lazyKind)
	lk.once.Do(func() { lk.v, lk.err = compile(src, gvk.Version) })
	return lk.v, lk.err
}

// compile builds the structural schema, schema validator and CEL validator of one version of a
// CRD, as the apiserver does.
func compile(src crdSource, version string) (*kindValidator, error) {
	crd, err := src()
	if err != nil {
		return nil, err
	}
	var served *apiextensionsv1.CustomResourceDefinitionVersion
	for i, v := range crd.Spec.Versions {
		if v.Name == version && v.Served {
			served = &crd.Spec.Versions[i]
		}
	}
	if served == nil || served.Schema == nil {
		return nil, fmt.Errorf("CRD %s serves no version %s with a schema", crd.Name, version)
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(served.Schema, internal, nil); err != nil {
		return nil, fmt.Errorf("converting the schema of %s %s: %w", crd.Name, version, err)
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("structural schema of %s %s: %w", crd.Name, version, err)
	}
	// The apiserver's own copy, with defaults that would be pruned removed.
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("pruning the defaults of %s %s: %w", crd.Name, version, err)
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("schema validator of %s %s: %w", crd.Name, version, err)
	}
	v := &kindValidator{
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		hasStatus:  served.Subresources != nil && served.Subresources.Status != nil,
		structural: s,
		schema:     sv,
		cel:        cel.NewValidator(s, true, celconfig.PerCallLimit),
	}
	if served.Subresources != nil && served.Subresources.Scale != nil {
		v.specReplicasPath = served.Subresources.Scale.SpecReplicasPath
	}
	return v, nil
}

// Object checks obj as the apiserver checks a custom resource it is asked to create: it prunes
// unknown fields and applies the schema's defaults (on a copy), runs upstream's mutating webhook
// where it has one (mutation.go), then validates metadata, the OpenAPI schema, embedded
// resources, list types and, unless an error already makes them pointless (as the apiserver
// decides), the CEL rules within the apiserver's cost budget. obj is an
// *unstructured.Unstructured, a map, or any value that encodes to a Kubernetes object in JSON (an
// apply configuration, a typed object); its apiVersion and kind pick the CRD. The error is for an
// object the engine cannot judge (a kind without a CRD here, or one that does not encode). An
// object the CRD accepts then goes through upstream's validating admission code where it exports
// one (admission.go); a refusal it words without a field has no Field (see Text). An object of a
// built-in kind the provider writes (builtin.go) is judged as the apiserver's own validation of
// that kind judges it, where that code is importable. Argo's kinds are then also checked against
// Argo Workflows v4's CRDs (crds_argo4.go).
func Object(ctx context.Context, obj any) (field.ErrorList, error) {
	_, errs, err := Admitted(ctx, obj)
	return errs, err
}

// Admitted is Object's judgement with the object as the apiserver would store it when it accepts
// it (pruned, defaulted, changed by the mutating webhook, without status; the metadata the
// apiserver sets, such as uid, not set), nil when it refuses it.
func Admitted(ctx context.Context, obj any) (map[string]any, field.ErrorList, error) {
	u, gvk, err := decode(obj)
	if err != nil {
		return nil, nil, err
	}
	if b, ok := builtins[gvk.GroupKind()]; ok {
		if errs, err := checkBuiltin(ctx, b, gvk, u); err != nil || len(errs) > 0 {
			return nil, errs, err
		}
		return u, nil, nil
	}
	sent := argo4Copy(gvk, u)
	errs, err := checkCRDMap(ctx, gvk, u, true)
	if err != nil || len(errs) > 0 {
		return nil, errs, err // the apiserver calls the validating webhooks only on an object it accepts
	}
	if errs, err = admit(ctx, gvk, u); err != nil || len(errs) > 0 {
		return nil, errs, err
	}
	// Last: what v3 refuses too is worded by v3's validator, which says more.
	if errs, err := checkArgo4(ctx, gvk, sent); err != nil || len(errs) > 0 {
		return nil, errs, err
	}
	return u, nil, nil
}

// checkCRD is Object's CRD step, with the mutating webhooks before it when webhooks is set: the
// object's kind, and the object as the step leaves it (pruned and defaulted) for the validating
// admission step.
func checkCRD(ctx context.Context, obj any, webhooks bool) (field.ErrorList, schema.GroupVersionKind, map[string]any, error) {
	u, gvk, err := decode(obj)
	if err != nil {
		return nil, gvk, nil, err
	}
	errs, err := checkCRDMap(ctx, gvk, u, webhooks)
	return errs, gvk, u, err
}

// decode is obj as JSON decodes it, and its kind.
func decode(obj any) (map[string]any, schema.GroupVersionKind, error) {
	u, err := toJSONMap(obj)
	if err != nil {
		return nil, schema.GroupVersionKind{}, err
	}
	apiVersion, _ := u["apiVersion"].(string)
	kind, _ := u["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("object of kind %q: apiVersion %q: %w", kind, apiVersion, err)
	}
	return u, gv.WithKind(kind), nil
}

// checkCRDMap is the CRD step on u, which it prunes and defaults, with the mutating webhooks
// before it when webhooks is set.
func checkCRDMap(ctx context.Context, gvk schema.GroupVersionKind, u map[string]any, webhooks bool) (field.ErrorList, error) {
	v, err := validatorFor(gvk)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("no CRD of %s is compiled in", gvk.GroupKind())
	}
	// As the apiserver decodes the request.
	v.decode(u)
	if webhooks {
		// Mutating admission runs on the decoded object, before the create's checks; the
		// apiserver decodes the patched object again.
		changed, refusal, err := mutate(ctx, gvk, u)
		if err != nil || len(refusal) > 0 {
			return refusal, err
		}
		if changed {
			v.decode(u)
		}
	}
	return v.validate(ctx, u), nil
}

// decode prunes unknown fields from u and applies the schema's defaults, as the apiserver does to
// an object it decodes (and to one a mutating webhook patched).
func (v *kindValidator) decode(u map[string]any) {
	pruning.Prune(u, v.structural, true)
	structuraldefaulting.Default(u, v.structural)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, v.structural)
}

// validate runs the apiserver's create checks on the decoded u, which it may change.
func (v *kindValidator) validate(ctx context.Context, u map[string]any) field.ErrorList {
	if v.hasStatus {
		delete(u, "status") // a create cannot set status (PrepareForCreate)
	}

	errs := v.validateMetadata(u)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u, v.schema)...)
	errs = append(errs, validateScale(u, v.specReplicasPath)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u, v.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, v.structural, u)...)
	if v.cel == nil {
		return errs
	}
	if blocking := blockingError(errs); blocking != nil {
		return append(errs, blocking)
	}
	celErrs, _ := v.cel.Validate(ctx, nil, v.structural, u, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// validateMetadata checks the object's metadata as the apiserver does for every custom resource
// (names are DNS subdomains; labels and annotations well formed).
func (v *kindValidator) validateMetadata(u map[string]any) field.ErrorList {
	raw, _ := u["metadata"].(map[string]any)
	meta := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, meta); err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	return metavalidation.ValidateObjectMeta(meta, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// blockingError is the error the apiserver adds instead of running the CEL rules when the object
// already failed in a way that makes them meaningless (hasBlockingErr in
// pkg/registry/customresource/strategy.go, which is not exported).
func blockingError(errs field.ErrorList) *field.Error {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}

// toJSONMap is obj as the apiserver decodes it from JSON (whole numbers as int64), never sharing
// memory with obj.
func toJSONMap(obj any) (map[string]any, error) {
	if u, ok := obj.(interface{ UnstructuredContent() map[string]any }); ok {
		obj = u.UnstructuredContent()
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding the object to validate: %w", err)
	}
	var u map[string]any
	if err := utiljson.Unmarshal(b, &u); err != nil {
		return nil, fmt.Errorf("decoding the object to validate: %w", err)
	}
	return u, nil
}
