//go:build !linux

package testcluster

// lockFile locks nothing on other systems: test binaries that start together may each make the
// same seed, and the first to keep it wins (etcdSeed).
func lockFile(string) (func(), error) { return func() {}, nil }
