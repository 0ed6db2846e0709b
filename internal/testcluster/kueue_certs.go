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
// certificate management is off, even with metrics serving off: cmd/kueue/main.go hard-codes it (no
// flag or configuration field moves it) and exits if the files are missing. The manager gets a pair
// there only inside its own mount namespace (see kueueCommand): the host's /etc is never written.
const kueueMetricsCertDir = "/etc/kueue/metrics/certs"

// writeKueueMetricsCerts writes a self-signed pair (any pair will do) into a new directory in dir
// and returns that directory.
func writeKueueMetricsCerts(dir string) (string, error) {
	certs := filepath.Join(dir, "kueue-metrics-certs")
	crt, key, err := selfSignedPair()
	if err == nil {
		err = os.Mkdir(certs, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(certs, "tls.crt"), crt, 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(certs, "tls.key"), key, 0o600)
	}
	if err != nil {
		return "", fmt.Errorf("writing a metrics certificate pair for Kueue's manager: %w", err)
	}
	return certs, nil
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
