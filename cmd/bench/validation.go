package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// validationRuns is how many times the W100 objects are checked after the first pass.
const validationRuns = 5

// validationCost is what the validation engine (internal/validate: each kind's CRD schema and
// CEL rules, then upstream's admission code) costs for W100's objects, measured in this process
// as the provider spends it in each plan and apply: the first pass compiles each kind once.
type validationCost struct {
	objects   int
	first     time.Duration
	passes    []time.Duration
	allocated uint64 // bytes per pass, median pass
}

// measureValidation checks W100's 100 objects (those the kubectl floor applies) with the engine.
func measureValidation(ctx context.Context) (validationCost, error) {
	var objs []map[string]any
	for i := range 50 {
		objs = append(objs, flavorManifest("cli", fmt.Sprint(i), "1"),
			queueManifest("cli", fmt.Sprint(i), fmt.Sprintf("bench-cli-f%d", i), "1"))
	}
	pass := func() (time.Duration, uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		for _, o := range objs {
			errs, err := validate.Object(ctx, o)
			if err != nil {
				return 0, 0, err
			}
			if len(errs) > 0 {
				return 0, 0, fmt.Errorf("the engine refuses a bench object: %v", errs)
			}
		}
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		return took, after.TotalAlloc - before.TotalAlloc, nil
	}
	c := validationCost{objects: len(objs)}
	var err error
	if c.first, _, err = pass(); err != nil {
		return c, err
	}
	var allocs []uint64
	for range validationRuns {
		took, alloc, err := pass()
		if err != nil {
			return c, err
		}
		c.passes, allocs = append(c.passes, took), append(allocs, alloc)
	}
	slices.Sort(allocs)
	c.allocated = allocs[len(allocs)/2]
	return c, nil
}

func (c validationCost) print(out io.Writer) {
	if c.objects == 0 {
		return
	}
	ps := slices.Clone(c.passes)
	slices.Sort(ps)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(out, "Validation engine (internal/validate) on W100's %d objects, in the bench's process: first pass %s "+
		"(compiles each kind's CRD once per process), then %s (%s-%s, %d passes), %.1f MB allocated per pass.\n",
		c.objects, ms(c.first), ms(ps[len(ps)/2]), ms(ps[0]), ms(ps[len(ps)-1]), len(ps), float64(c.allocated)/(1<<20))
}
