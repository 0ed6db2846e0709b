package testcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// kueueMetricsCertDir is where Kueue's manager reads a metrics certificate pair whenever its internal
// certificate management is off, even with metrics serving off: cmd/kueue/main.go hard-codes it and
// exits if the files are missing.
const kueueMetricsCertDir = "/etc/kueue/metrics/certs"

// ensureKueueMetricsCerts puts a self-signed pair there unless one exists. The directory is swapped
// in whole, so that concurrent test binaries never see half a pair; it is left for the next run.
func ensureKueueMetricsCerts() error {
	if kueueMetricsCertsExist() {
		return nil
	}
	explain := func(err error) error {
		return fmt.Errorf("kueue's manager needs a certificate pair (tls.crt, tls.key; any pair will do) in %s, "+
			"which could not be created: %w; create one there or run the tests against a cluster named by KUBECONFIG",
			kueueMetricsCertDir, err)
	}
	parent := filepath.Dir(kueueMetricsCertDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return explain(err)
	}
	tmp, err := os.MkdirTemp(parent, "certs-")
	if err != nil {
		return explain(err)
	}
	defer os.RemoveAll(tmp)
	crt, key, err := selfSignedPair()
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "tls.crt"), crt, 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "tls.key"), key, 0o600)
	}
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, kueueMetricsCertDir)
	}
	if err != nil && !kueueMetricsCertsExist() {
		return explain(err)
	}
	return nil
}

func kueueMetricsCertsExist() bool {
	for _, f := range []string{"tls.crt", "tls.key"} {
		if _, err := os.Stat(filepath.Join(kueueMetricsCertDir, f)); err != nil {
			return false
		}
	}
	return true
}

// selfSignedPair is a PEM certificate and key for 127.0.0.1.
func selfSignedPair() (crt, key []byte, err error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "kueue-metrics (mlplatform testcluster)"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), nil
}
