package testcluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// A control plane starts from a copy of a seed: etcd's data after a control plane of the same
// kube-apiserver and etcd installed the same CRDs, made once and kept next to the tools. Installing
// the CRDs costs the apiserver about 20 s of CPU (Argo's and Kueue's are 4 MB of schemas and CEL
// rules it checks, stores and reconciles); starting on a copy, about 5. The CRDs a cluster serves
// are those of the seed's name: it is the hash of the binaries and of every CRD's content.

// etcdSeed is the directory of the seed for crds, made first if there is none.
func etcdSeed(apiserver, etcd string, crds []*apiextensionsv1.CustomResourceDefinition) (string, error) {
	key, err := seedKey(apiserver, etcd, crds)
	if err != nil {
		return "", err
	}
	root := filepath.Join(filepath.Dir(filepath.Dir(etcd)), "etcd-seeds")
	seed := filepath.Join(root, key)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	// Test binaries start together: one makes the seed, the others wait for it.
	unlock, err := lockFile(seed + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(seed, "member")); err == nil {
		return seed, nil
	}
	tmp, err := os.MkdirTemp(root, "making-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := installCRDs(apiserver, etcd, tmp, crds); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, seed); err != nil {
		// Where lockFile cannot lock, another binary may have kept its own first.
		if _, statErr := os.Stat(filepath.Join(seed, "member")); statErr != nil {
			return "", fmt.Errorf("keeping the etcd seed: %w", err)
		}
	}
	return seed, nil
}

// seedKey names the seed of crds on the given binaries.
func seedKey(apiserver, etcd string, crds []*apiextensionsv1.CustomResourceDefinition) (string, error) {
	sorted := slices.Clone(crds)
	slices.SortFunc(sorted, func(a, b *apiextensionsv1.CustomResourceDefinition) int { return strings.Compare(a.Name, b.Name) })
	content, err := json.Marshal(sorted)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(apiserver), {0}, []byte(etcd), {0}, content} {
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// installCRDs runs a control plane on etcd data in dataDir, installs crds, and stops it, leaving
// the data. A CRD install that times out is the machine's load, not the control plane's fault
// (under a load of 40 on 2 cores, the apiserver took over its 1m request timeout to create Argo's
// largest CRD): one more try, on fresh data, before the tests give up.
func installCRDs(apiserver, etcd, dataDir string, crds []*apiextensionsv1.CustomResourceDefinition) error {
	for attempt := 1; ; attempt++ {
		env := &envtest.Environment{
			ControlPlane: envtest.ControlPlane{
				APIServer: &envtest.APIServer{Path: apiserver},
				Etcd:      &envtest.Etcd{Path: etcd, DataDir: dataDir},
			},
			ControlPlaneStartTimeout: controlPlaneStartTimeout,
			ControlPlaneStopTimeout:  controlPlaneStopTimeout,
			CRDInstallOptions:        envtest.CRDInstallOptions{CRDs: crds, MaxTime: crdServedTimeout},
		}
		_, err := env.Start()
		// envtest leaves etcd and the apiserver running when a later part of its start (the CRDs)
		// fails.
		err = errors.Join(err, env.Stop())
		if err == nil {
			return nil
		}
		if attempt == 2 || !strings.Contains(err.Error(), "unable to install CRDs") {
			return fmt.Errorf("installing the CRDs on a local control plane: %w", err)
		}
		fmt.Fprintf(os.Stderr, "testcluster: %v; starting again\n", err)
		if err := errors.Join(os.RemoveAll(dataDir), os.MkdirAll(dataDir, 0o700)); err != nil {
			return err
		}
	}
}

// copySeed copies the seed's files into dir, leaving holes where the seed has zeros: etcd's
// write-ahead log is 64 MB preallocated, most of it zeros.
func copySeed(seed, dir string) error {
	return filepath.WalkDir(seed, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(seed, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		return copySparse(path, to)
	})
}

func copySparse(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	buf := make([]byte, 64<<10)
	var size int64
	for {
		n, readErr := io.ReadFull(in, buf)
		if n > 0 {
			var err error
			if isZero(buf[:n]) {
				_, err = out.Seek(int64(n), io.SeekCurrent)
			} else {
				_, err = out.Write(buf[:n])
			}
			if err != nil {
				return errors.Join(err, out.Close())
			}
			size += int64(n)
		}
		if errors.Is(readErr, io.EOF) || errors.Is(readErr, io.ErrUnexpectedEOF) {
			break
		}
		if readErr != nil {
			return errors.Join(readErr, out.Close())
		}
	}
	return errors.Join(out.Truncate(size), out.Close())
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
