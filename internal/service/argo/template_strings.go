package argo

import (
	"fmt"
	"regexp"
	"strings"
)

// paramRef is the one form of `{{` a user string may hold: a reference to one of the template's
// own parameters, which the engineer sets at submit time.
var paramRef = regexp.MustCompile(`^\{\{\s*workflow\.parameters\.([A-Za-z0-9_-]+)\s*\}\}`)

// checkTemplateString refuses a `{{` that Argo would expand into something the template does not
// declare: another workflow's variables, expressions (`{{=`), secrets, or a parameter it lacks.
// Values never run through a shell, so this is what keeps a user string from reaching further
// than its own argv element.
func checkTemplateString(s string, params map[string]bool) error {
	for i := strings.Index(s, "{{"); i >= 0; {
		m := paramRef.FindStringSubmatch(s[i:])
		if m == nil {
			return fmt.Errorf("%q holds a `{{` that is not a reference to one of the template's parameters "+
				"(`{{workflow.parameters.<name>}}`, where name is `dataset_version` or a key of `hyperparameters`); "+
				"Argo would expand it at run time", s)
		}
		if !params[m[1]] {
			return fmt.Errorf("%q refers to parameter %q, which the template does not declare (declare it in "+
				"`hyperparameters`)", s, m[1])
		}
		next := strings.Index(s[i+len(m[0]):], "{{")
		if next < 0 {
			break
		}
		i += len(m[0]) + next
	}
	return nil
}
