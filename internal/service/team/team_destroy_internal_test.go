package team

import (
	"fmt"
	"strings"
	"testing"
)

// A refusal names at most maxNamed objects and counts the rest, so a namespace of thousands of
// objects still gives a readable error.
func TestNamedCountsBeyondTheCap(t *testing.T) {
	var names []string
	for i := range maxNamed + 3 {
		names = append(names, fmt.Sprintf("ConfigMap team/c%02d", i))
	}
	if got := named(names[:2]); got != "ConfigMap team/c00, ConfigMap team/c01" {
		t.Errorf("named(2) = %q", got)
	}
	got := named(names)
	if want := strings.Join(names[:maxNamed], ", ") + " and 3 more"; got != want {
		t.Errorf("named(%d) = %q, want %q", len(names), got, want)
	}
}
