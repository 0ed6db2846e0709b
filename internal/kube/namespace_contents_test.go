package kube_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/rest"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// NamespaceContents lists every object of a namespace, with apiVersion, kind and metadata, but the
// types skip accepts; a type the credentials may not list is an error naming the verb, the
// resource and the namespace, and what could be listed comes with it.
func TestAccClient_namespaceContents(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	c := adminClient(t)
	ns := acctest.Name("contents")
	namespaces := kube.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, Kind: "Namespace"}
	secrets := kube.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Kind: "Secret", Namespaced: true}
	for _, o := range []struct {
		k    kube.Kind
		body any
	}{
		{namespaces, corev1ac.Namespace(ns)},
		{configMaps, corev1ac.ConfigMap("settings", ns).WithAnnotations(map[string]string{"team": "nlp"})},
		{secrets, corev1ac.Secret("credentials", ns)},
	} {
		if _, err := c.Apply(ctx, o.k, o.body); err != nil {
			t.Fatal(err)
		}
	}

	all, err := c.NamespaceContents(ctx, ns, func(kube.Kind) bool { return false })
	if got, want := described(all), []string{"v1 ConfigMap settings team=nlp", "v1 Secret credentials"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("NamespaceContents = %v, %v; want %v", got, err, want)
	}
	noSecrets, err := c.NamespaceContents(ctx, ns, func(k kube.Kind) bool { return k.GVR == secrets.GVR })
	if got, want := described(noSecrets), []string{"v1 ConfigMap settings team=nlp"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("NamespaceContents skipping secrets = %v, %v; want %v", got, err, want)
	}

	token := acctest.ServiceAccountToken(t, acctest.Name("contents-reader"),
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"list"}})
	cfg := rest.AnonymousClientConfig(acctest.RestConfig(t))
	cfg.BearerToken = token
	limited := kube.NewClient(func() (*rest.Config, error) { return cfg, nil }, "")
	some, err := limited.NamespaceContents(ctx, ns, func(kube.Kind) bool { return false })
	want := `RBAC refused verb "list" on resource "secrets" (group "") in namespace ` + ns
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	if got := described(some); !slices.Equal(got, []string{"v1 ConfigMap settings team=nlp"}) {
		t.Fatalf("with the refusal, NamespaceContents = %v; want the ConfigMap it could list", got)
	}
}

// described is "apiVersion Kind name [annotations]" of each object, sorted.
func described(objs []*unstructured.Unstructured) []string {
	var out []string
	for _, o := range objs {
		s := o.GetAPIVersion() + " " + o.GetKind() + " " + o.GetName()
		for k, v := range o.GetAnnotations() {
			s += " " + k + "=" + v
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
