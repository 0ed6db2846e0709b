package preflight_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// cluster is where one test's controllers "run": a namespace each for Kueue, Karpenter and the GPU
// Operator, and the name of its ClusterPolicy, all unique to the run.
type cluster struct {
	kueue, karpenter, gpuOperator, clusterPolicy string
}

func newCluster(t *testing.T, prefix string) cluster {
	t.Helper()
	c := cluster{
		kueue: acctest.Name(prefix + "-kueue"), karpenter: acctest.Name(prefix + "-karpenter"),
		gpuOperator: acctest.Name(prefix + "-gpu"), clusterPolicy: acctest.Name(prefix),
	}
	client := clientset(t)
	for _, ns := range []string{c.kueue, c.karpenter, c.gpuOperator} {
		_, err := client.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = client.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{}) })
	}
	return c
}

func clientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	return kubernetes.NewForConfigOrDie(acctest.RestConfig(t))
}

// deployment is a Deployment of one container, as a chart renders it.
func deployment(namespace, name, container string, args []string, env ...corev1.EnvVar) *appsv1.Deployment {
	labels := map[string]string{"app.kubernetes.io/name": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: container, Image: "registry.invalid/" + name, Args: args, Env: env}}},
			},
		},
	}
}

// kueueRelease writes what Kueue's chart (v0.19.2) writes for managerConfig.controllerManagerConfigYaml
// = configuration and controllerManager.featureGates = gates ("" for none): the ConfigMap
// kueue-manager-config and the Deployment kueue-controller-manager.
func (c cluster) kueueRelease(t *testing.T, configuration, gates string) {
	t.Helper()
	client := clientset(t)
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kueue-manager-config", Namespace: c.kueue},
		Data:       map[string]string{"controller_manager_config.yaml": configuration},
	}
	if _, err := client.CoreV1().ConfigMaps(c.kueue).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config=/controller_manager_config.yaml", "--zap-log-level=2"}
	if gates != "" {
		args = append(args, "--feature-gates="+gates)
	}
	if _, err := client.AppsV1().Deployments(c.kueue).Create(context.Background(),
		deployment(c.kueue, "kueue-controller-manager", "manager", args), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// karpenterRelease writes the Deployment Karpenter's chart (v1.15.2) writes for the release
// karpenter, with the FEATURE_GATES it renders from settings.featureGates, nodeOverlay given.
func (c cluster) karpenterRelease(t *testing.T, nodeOverlay bool) {
	t.Helper()
	gates := fmt.Sprintf("ReservedCapacity=true,SpotToSpotConsolidation=false,NodeRepair=false,NodeOverlay=%t,StaticCapacity=false,"+
		"CapacityBuffer=false,TerminateFirstDrift=false,TerminateFirstRepair=false,PodDeletionCostManagement=false", nodeOverlay)
	d := deployment(c.karpenter, "karpenter", "controller", nil, corev1.EnvVar{Name: "FEATURE_GATES", Value: gates})
	if _, err := clientset(t).AppsV1().Deployments(c.karpenter).Create(context.Background(), d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// gpuOperatorRelease writes the ClusterPolicy the GPU Operator's chart renders with spec (YAML of
// the fields the test sets; the CRD's required ones are added empty), and the dcgm-exporter
// DaemonSet and Service the operator creates from it (service false leaves the Service out).
func (c cluster) gpuOperatorRelease(t *testing.T, spec, dcgmKubernetes string, service bool) {
	t.Helper()
	var s map[string]any
	if err := yaml.Unmarshal([]byte(spec), &s); err != nil {
		t.Fatal(err)
	}
	for _, required := range []string{"daemonsets", "dcgm", "dcgmExporter", "devicePlugin", "driver", "gfd", "nodeStatusExporter", "operator", "toolkit"} {
		if _, ok := s[required]; !ok {
			s[required] = map[string]any{}
		}
	}
	cp := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": map[string]any{"name": c.clusterPolicy}, "spec": s,
	}}
	gvr := schema.GroupVersionResource{Group: "nvidia.com", Version: "v1", Resource: "clusterpolicies"}
	if _, err := acctest.Dynamic(t).Resource(gvr).Create(context.Background(), cp, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = acctest.Dynamic(t).Resource(gvr).Delete(context.Background(), c.clusterPolicy, metav1.DeleteOptions{})
	})

	client := clientset(t)
	labels := map[string]string{"app": "nvidia-dcgm-exporter"}
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "nvidia-dcgm-exporter", Namespace: c.gpuOperator, Labels: labels},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "nvidia-dcgm-exporter", Image: "nvcr.io/nvidia/k8s/dcgm-exporter",
					Env: []corev1.EnvVar{
						{Name: "DCGM_EXPORTER_LISTEN", Value: ":9400"},
						{Name: "DCGM_EXPORTER_KUBERNETES", Value: dcgmKubernetes},
					},
				}}},
			},
		},
	}
	if _, err := client.AppsV1().DaemonSets(c.gpuOperator).Create(context.Background(), ds, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if !service {
		return
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "nvidia-dcgm-exporter", Namespace: c.gpuOperator, Labels: labels},
		Spec:       corev1.ServiceSpec{Selector: labels, Ports: []corev1.ServicePort{{Name: "gpu-metrics", Port: 9400}}},
	}
	if _, err := client.CoreV1().Services(c.gpuOperator).Create(context.Background(), svc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// configMap writes a ConfigMap of one key.
func (c cluster) configMap(t *testing.T, namespace, name, key, value string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}, Data: map[string]string{key: value}}
	if _, err := clientset(t).CoreV1().ConfigMaps(namespace).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// config is data.mlplatform_preflight.this on c, wanting kueueConfiguration, karpenterValues and
// gpuOperatorValues (YAML), with provider settings providerBody.
func (c cluster) config(providerBody, kueueConfiguration, karpenterValues, gpuOperatorValues string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  %s
}

data "mlplatform_preflight" "this" {
  kueue = {
    configuration = %s
    namespace     = %q
  }
  karpenter = {
    values    = %s
    namespace = %q
  }
  gpu_operator = {
    values         = %s
    namespace      = %q
    cluster_policy = %q
  }
}

output "checked" { value = data.mlplatform_preflight.this.checked }
output "findings" { value = length(data.mlplatform_preflight.this.findings) }
`, providerBody, heredoc(kueueConfiguration), c.kueue, heredoc(karpenterValues), c.karpenter,
		heredoc(gpuOperatorValues), c.gpuOperator, c.clusterPolicy)
}

func heredoc(s string) string { return "<<-EOT\n" + strings.TrimRight(s, "\n") + "\nEOT\n" }
