package team_test

import (
	"regexp"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// What no attribute validator sees but the apiserver refuses is refused at plan by the engine's
// built-in kinds step, on the attribute it came from, with no API call: annotations whose keys
// and values are each fine but together pass the apiserver's 256 KiB limit.
func TestAccTeam_refusedByBuiltinKindsStep(t *testing.T) {
	acctest.PlanWithoutAPICalls(t, func(host string) string {
		return teamConfig(host, `name = "nlp"
annotations = { notes = format("%0262144d", 0) }`)
	}, regexp.MustCompile(`(?s)Namespace nlp would be refused.*metadata\.annotations: Too\s+long:\s+may\s+not\s+be\s+more\s+than\s+262144\s+bytes.*annotations = \{ notes`))
}
