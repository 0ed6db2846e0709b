package testcluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// StopAPIServer stops the kube-apiserver (SIGTERM: requests in flight are answered, new ones get
// 429 with Retry-After until it exits, within about 2s; then connections are refused) and leaves
// etcd, and so every object, as it is. StartAPIServer starts it again on the same etcd data,
// address, certificates and users. Fault tests use them to take the API away in the middle of an
// apply, and the MultiKueue test to lose a worker; nothing else should.
func (c *Cluster) StopAPIServer() error {
	if err := c.env.ControlPlane.APIServer.Stop(); err != nil {
		return fmt.Errorf("stopping the kube-apiserver: %w", err)
	}
	c.apiServerStopped = true
	return nil
}

// StartAPIServer starts the kube-apiserver StopAPIServer stopped and waits until it is healthy;
// it does nothing when the apiserver runs (a second start would lose the handle of the running
// process, which Stop then could not stop). Its output goes to apiserver.log in the cluster's
// directory.
func (c *Cluster) StartAPIServer() error {
	if !c.apiServerStopped {
		return nil
	}
	s := c.env.ControlPlane.APIServer
	log, err := os.OpenFile(filepath.Join(c.dir, "apiserver.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer log.Close() // the process has its own descriptor
	s.Out, s.Err = log, log
	if err := s.Start(); err != nil {
		return fmt.Errorf("starting the kube-apiserver again (its log: %s): %w", log.Name(), err)
	}
	c.apiServerStopped = false
	return nil
}
