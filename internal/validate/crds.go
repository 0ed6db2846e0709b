package validate

import (
	"embed"
	"fmt"
	"sync"

	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

//go:generate go run ./gencrds

//go:embed crds/*.yaml
var crdFiles embed.FS

// crdSource loads the CRD of one kind.
type crdSource func() (*apiextensionsv1.CustomResourceDefinition, error)

// sources are the CRDs the engine knows, by group and kind; a CRD is parsed only when a kind of
// it is first validated.
var sources = sync.OnceValue(func() map[schema.GroupKind]crdSource {
	out := map[schema.GroupKind]crdSource{}
	for _, k := range copiedKinds {
		out[k.GroupKind] = func() (*apiextensionsv1.CustomResourceDefinition, error) { return readCRD(k.file()) }
	}
	for _, crd := range awsapis.CRDs {
		out[schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}] = func() (*apiextensionsv1.CustomResourceDefinition, error) {
			return crd, nil
		}
	}
	return out
})

func readCRD(name string) (*apiextensionsv1.CustomResourceDefinition, error) {
	return readCRDFrom(crdFiles, "crds/"+name)
}

func readCRDFrom(files embed.FS, name string) (*apiextensionsv1.CustomResourceDefinition, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, err
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(b, crd); err != nil {
		return nil, fmt.Errorf("reading CRD %s: %w", name, err)
	}
	return crd, nil
}

// Known reports whether the engine judges objects of a group and kind: it holds their CRD, or
// it is a built-in kind the provider writes.
func Known(gk schema.GroupKind) bool {
	if _, ok := builtins[gk]; ok {
		return true
	}
	_, ok := sources()[gk]
	return ok
}
