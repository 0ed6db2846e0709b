package testcluster

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// StartAll starts a control plane per name at once, each in dir/<name> with its options, as a
// test of several clusters (MultiKueue's manager and workers) needs, and returns them by name.
// If one fails, those that started are stopped and the errors returned.
func StartAll(dir string, opts map[string][]Option) (map[string]*Cluster, error) {
	started := make(map[string]*Cluster, len(opts))
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, o := range opts {
		wg.Go(func() {
			c, err := Start(filepath.Join(dir, name), o...)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("starting %s: %w", name, err))
				return
			}
			started[name] = c
		})
	}
	wg.Wait()
	if len(errs) == 0 {
		return started, nil
	}
	for name, c := range started {
		if err := c.Stop(); err != nil {
			errs = append(errs, fmt.Errorf("stopping %s: %w", name, err))
		}
	}
	return nil, errors.Join(errs...)
}
