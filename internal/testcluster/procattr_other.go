//go:build !linux

package testcluster

import "os/exec"

func setParentDeathSignal(*exec.Cmd) {}
