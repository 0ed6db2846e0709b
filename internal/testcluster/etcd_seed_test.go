package testcluster

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// A seed is chosen by everything it holds: any change to a CRD, or another binary, names another
// seed, and the order in which the CRDs come does not.
func TestSeedKey_namesEveryDifference(t *testing.T) {
	crd := func(name, description string) *apiextensionsv1.CustomResourceDefinition {
		return &apiextensionsv1.CustomResourceDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Schema: &apiextensionsv1.CustomResourceValidation{
					OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Description: description},
				},
			}}},
		}
	}
	key := func(apiserver, etcd string, crds ...*apiextensionsv1.CustomResourceDefinition) string {
		k, err := seedKey(apiserver, etcd, crds)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	a, b := crd("a.example.com", "one"), crd("b.example.com", "two")
	base := key("apiserver-1", "etcd-1", a, b)
	if got := key("apiserver-1", "etcd-1", b, a); got != base {
		t.Errorf("the same CRDs in another order name seed %s; want %s", got, base)
	}
	for name, other := range map[string]string{
		"a schema's description": key("apiserver-1", "etcd-1", crd("a.example.com", "changed"), b),
		"one CRD fewer":          key("apiserver-1", "etcd-1", a),
		"another apiserver":      key("apiserver-2", "etcd-1", a, b),
		"another etcd":           key("apiserver-1", "etcd-2", a, b),
	} {
		if other == base {
			t.Errorf("%s names the same seed %s", name, base)
		}
	}
}

// A copy of a seed holds the same bytes, and no blocks where the seed has only zeros.
func TestCopySeed_sameBytesWithHoles(t *testing.T) {
	seed, dir := t.TempDir(), filepath.Join(t.TempDir(), "etcd")
	data := bytes.Repeat([]byte{0}, 8<<20)
	copy(data, "head")
	copy(data[len(data)-100:], "tail, past a long run of zeros")
	if err := os.MkdirAll(filepath.Join(seed, "member", "wal"), 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("member", "wal", "0.wal")
	if err := os.WriteFile(filepath.Join(seed, file), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := copySeed(seed, dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("the copy differs from the seed (%d bytes; want %d)", len(got), len(data))
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(dir, file), &st); err != nil {
		t.Fatal(err)
	}
	if used := st.Blocks * 512; used >= int64(len(data))/2 {
		t.Errorf("the copy of an 8 MiB file of zeros but 2 blocks takes %d bytes on disk; want holes", used)
	}
}

// A control plane started from a seed serves exactly the CRDs of its files, no more, none fewer.
func TestStart_servesTheCRDsOfItsFiles(t *testing.T) {
	if cluster == nil {
		t.Skip("acceptance test of the local control plane: set TF_ACC=1 and unset KUBECONFIG")
	}
	argo, err := argoFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := crdDirectories(argo)
	if err != nil {
		t.Fatal(err)
	}
	kwok, err := kwokNodeClassCRDs()
	if err != nil {
		t.Fatal(err)
	}
	files := envtest.CRDInstallOptions{Paths: append(dirs, kwok), CRDs: karpenterCRDs()}
	if err := envtest.ReadCRDFiles(&files); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, crd := range files.CRDs {
		want = append(want, crd.Name)
	}
	list, err := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, crd := range list.Items {
		got = append(got, crd.Name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("the cluster serves CRDs %q; its files are %q", got, want)
	}
}
