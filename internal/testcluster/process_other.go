//go:build !linux

package testcluster

import "os/exec"

// killWithParent cannot ask other systems to kill cmd with its parent: Stop must.
func killWithParent(*exec.Cmd) {}
