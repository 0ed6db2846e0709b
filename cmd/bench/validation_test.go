package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The bench's measurement of the engine accepts every W100 object and prints its figures.
func TestMeasureValidation(t *testing.T) {
	c, err := measureValidation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.objects != 100 || len(c.passes) != validationRuns || c.allocated == 0 {
		t.Fatalf("measured %+v", c)
	}
	var out bytes.Buffer
	c.print(&out)
	if !strings.Contains(out.String(), "on W100's 100 objects") {
		t.Errorf("printed %q", out.String())
	}
	t.Log(out.String())
}
