package argo

import (
	"strings"
	"testing"
)

func TestCheckTemplateString(t *testing.T) {
	params := map[string]bool{"learning_rate": true, "dataset_version": true}
	ok := []string{
		"plain", "--lr=0.1", "{ not a template }", "{{workflow.parameters.learning_rate}}",
		"--data=s3://d/{{ workflow.parameters.dataset_version }}/x-{{workflow.parameters.learning_rate}}",
	}
	for _, s := range ok {
		if err := checkTemplateString(s, params); err != nil {
			t.Errorf("%q refused: %v", s, err)
		}
	}
	refused := map[string]string{
		"{{workflow.parameters.epochs}}":                                        `parameter "epochs", which the template does not declare`,
		"{{=sprig.env('AWS_SECRET_ACCESS_KEY')}}":                               "not a reference to one of the template's parameters",
		"{{workflow.serviceAccountName}}":                                       "not a reference",
		"ok {{workflow.parameters.learning_rate}} then {{inputs.parameters.x}}": "not a reference",
		"{{": "not a reference",
	}
	for s, want := range refused {
		if err := checkTemplateString(s, params); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v; want %q", s, err, want)
		}
	}
}
