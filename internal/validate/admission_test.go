package validate

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Each case is an object its CRD accepts and upstream's admission code refuses (cases taken from
// Kueue's pkg/webhooks tests and Argo's validator): the error is upstream's, with its path when
// upstream gives one.
func TestObject_admissionRefuses(t *testing.T) {
	cases := map[string]struct {
		obj  map[string]any
		want string
	}{
		"ClusterQueue lendingLimit without cohort": {clusterQueue(func(spec map[string]any) {
			quota(spec)["lendingLimit"] = "4"
		}), `spec.resourceGroups[0].flavors[0].resources[1].lendingLimit: Invalid value: "4": must be nil when cohort is empty`},
		"ClusterQueue negative nominalQuota": {clusterQueue(func(spec map[string]any) {
			quota(spec)["nominalQuota"] = "-1"
		}), `spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: Invalid value: "-1": must be greater than or equal to 0`},
		"ClusterQueue resource not in coveredResources order": {clusterQueue(func(spec map[string]any) {
			quota(spec)["name"] = "memory"
		}), `spec.resourceGroups[0].flavors[0].resources[1].name: Invalid value: "memory": must match the name in coveredResources`},
		"ClusterQueue lendingLimit above nominalQuota": {clusterQueue(func(spec map[string]any) {
			spec["cohortName"] = "research"
			quota(spec)["lendingLimit"] = "9"
		}), `spec.resourceGroups[0].flavors[0].resources[1].lendingLimit: Invalid value: "9": must be less than or equal to the nominalQuota`},
		"ResourceFlavor invalid node label value": {resourceFlavor(map[string]any{"nodeLabels": map[string]any{"gpu": "a100 80gb"}}),
			`spec.nodeLabels: Invalid value: "a100 80gb": a valid label must be an empty string or consist of alphanumeric characters`},
		"Cohort borrowingLimit without parent": {cohort(map[string]any{"borrowingLimit": "2"}),
			`spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit: Invalid value: "2": must be nil when parent is empty`},
		"WorkflowTemplate name longer than 63": {workflowTemplate(strings.Repeat("a", 64), "trainer:1"),
			`workflow template name "` + strings.Repeat("a", 64) + `" must not be more than 63 characters long (currently 64)`},
		"WorkflowTemplate empty image": {workflowTemplate("train", ""),
			`templates.train.container.image may not be empty`},
		"CronWorkflow malformed schedule": {cronWorkflow("nightly", "at midnight"),
			`cron schedule at midnight is malformed: expected exactly 5 fields, found 2: [at midnight]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if errs := crdErrors(t, tc.obj); len(errs) > 0 {
				t.Fatalf("the CRD refuses it already: %v", texts(errs))
			}
			errs := mustValidate(t, tc.obj)
			if len(errs) != 1 || !strings.HasPrefix(Text(errs[0]), tc.want) {
				t.Errorf("errors %v; want one starting %q", texts(errs), tc.want)
			}
		})
	}
}

// What upstream's admission code accepts, and what it cannot judge without the cluster.
func TestObject_admissionAccepts(t *testing.T) {
	for name, obj := range map[string]map[string]any{
		"ClusterQueue":     clusterQueue(nil),
		"ResourceFlavor":   resourceFlavor(map[string]any{"nodeLabels": map[string]any{"gpu": "a100-80gb"}}),
		"Cohort":           cohort(nil),
		"WorkflowTemplate": workflowTemplate("train", "trainer:1"),
		// The rest of the check reads the referenced template from the cluster: skipped.
		"CronWorkflow of a template": cronWorkflow("nightly", "0 2 * * *"),
	} {
		t.Run(name, func(t *testing.T) {
			if errs := mustValidate(t, obj); len(errs) > 0 {
				t.Errorf("refused: %v", texts(errs))
			}
		})
	}
}

// crdErrors are the CRD step's errors alone.
func crdErrors(t *testing.T, obj map[string]any) field.ErrorList {
	t.Helper()
	u, err := toJSONMap(obj)
	if err != nil {
		t.Fatal(err)
	}
	gv, _ := schema.ParseGroupVersion(u["apiVersion"].(string))
	v, err := validatorFor(gv.WithKind(u["kind"].(string)))
	if err != nil || v == nil {
		t.Fatal(err, v)
	}
	v.decode(u)
	return v.validate(context.Background(), u)
}

func texts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, Text(e))
	}
	return out
}

// quota is the GPU quota of clusterQueue's flavor.
func quota(spec map[string]any) map[string]any {
	return resourceGroup(spec)["flavors"].([]any)[0].(map[string]any)["resources"].([]any)[1].(map[string]any)
}

func resourceFlavor(spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
		"metadata": map[string]any{"name": "a100"}, "spec": spec}
}

// cohort is a Cohort lending 8 GPUs, with extra fields on its quota.
func cohort(extra map[string]any) map[string]any {
	q := map[string]any{"name": "nvidia.com/gpu", "nominalQuota": 8}
	for k, v := range extra {
		q[k] = v
	}
	return map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort",
		"metadata": map[string]any{"name": "research"},
		"spec": map[string]any{"resourceGroups": []any{map[string]any{
			"coveredResources": []any{"nvidia.com/gpu"},
			"flavors":          []any{map[string]any{"name": "a100", "resources": []any{q}}},
		}}}}
}

func workflowTemplate(name, image string) map[string]any {
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "WorkflowTemplate",
		"metadata": map[string]any{"name": name, "namespace": "nlp"},
		"spec": map[string]any{"entrypoint": "train", "templates": []any{map[string]any{
			"name": "train", "container": map[string]any{"image": image},
		}}}}
}

func cronWorkflow(name, schedule string) map[string]any {
	return map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "CronWorkflow",
		"metadata": map[string]any{"name": name, "namespace": "nlp"},
		"spec": map[string]any{"schedules": []any{schedule},
			"workflowSpec": map[string]any{"workflowTemplateRef": map[string]any{"name": "train"}}}}
}

// Argo resolves a template's reference to itself; a reference to another template needs the
// cluster, so Argo's check is skipped rather than refused.
func TestObject_workflowTemplateReferences(t *testing.T) {
	ref := func(name string) map[string]any {
		wt := workflowTemplate("train", "")
		spec := wt["spec"].(map[string]any)
		spec["entrypoint"] = "main"
		spec["templates"] = append(spec["templates"].([]any), map[string]any{"name": "main", "steps": []any{[]any{
			map[string]any{"name": "run", "templateRef": map[string]any{"name": name, "template": "train"}},
		}}})
		return wt
	}
	if errs := mustValidate(t, ref("train")); len(errs) != 1 || !strings.Contains(Text(errs[0]), "container.image may not be empty") {
		t.Errorf("self reference: %v; want the referenced template's empty image refused", texts(errs))
	}
	if errs := mustValidate(t, ref("elsewhere")); len(errs) > 0 {
		t.Errorf("reference to another template: %v; want no verdict", texts(errs))
	}
}

// argoproj/argo-workflows#14968: with spec.podMetadata set, v3.7.3 dereferenced a missing
// entrypoint template and panicked; v3.7.18 refuses it.
func TestObject_argoMissingEntrypointWithPodMetadata(t *testing.T) {
	wt := workflowTemplate("train", "trainer:1")
	wt["spec"].(map[string]any)["entrypoint"] = "other"
	wt["spec"].(map[string]any)["podMetadata"] = map[string]any{"labels": map[string]any{"team": "nlp"}}
	errs := mustValidate(t, wt)
	if len(errs) != 1 || Text(errs[0]) != "template name 'other' undefined" {
		t.Errorf("errors %v; want the missing template refused", texts(errs))
	}
}
