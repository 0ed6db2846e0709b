package faulttest

import (
	"crypto/tls"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// fault is what the proxy does to one request instead of passing it on.
type fault struct {
	status     int // answer with this status (429, 503), with Retry-After: retryAfter seconds
	retryAfter int
	reset      bool // reset the connection (TCP RST) without an answer
}

// faultProxy stands between the provider and the API server, serving HTTPS with a certificate
// of its own: it passes requests on (with the admin's credentials, or with the provider's own),
// after a delay, unless faultFor says otherwise. faultFor is told each request's place in the
// order of arrival (1 for the first), so that faults follow the provider's requests, not the clock,
// which a loaded machine slows. It records what it did to each request.
type faultProxy struct {
	URL      string
	caPEM    string // the CA of its serving certificate
	latency  time.Duration
	faultFor func(r *http.Request, nth int) *fault

	mu       sync.Mutex
	requests int
	events   []proxyEvent
}

type proxyEvent struct {
	at     time.Time
	key    string // method and path: one object's read or write
	status int    // 0 for a reset
	passed bool
	bearer bool // the request carried a bearer token
}

func newFaultProxy(t *testing.T, latency time.Duration, faultFor func(*http.Request, int) *fault) *faultProxy {
	t.Helper()
	return newProxyTo(t, admin, latency, faultFor)
}

// newProxyTo is a proxy that reaches the API server with upstream's credentials; with none, each
// request's own Authorization header goes through.
func newProxyTo(t *testing.T, upstream *rest.Config, latency time.Duration, faultFor func(*http.Request, int) *fault) *faultProxy {
	t.Helper()
	target, err := url.Parse(upstream.Host)
	if err != nil {
		t.Fatal(err)
	}
	transport, err := rest.TransportFor(upstream)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = transport
	p := &faultProxy{latency: latency, faultFor: faultFor}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests++
		nth := p.requests
		p.mu.Unlock()
		time.Sleep(p.latency)
		ev := proxyEvent{at: time.Now(), key: r.Method + " " + r.URL.Path, bearer: strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")}
		var f *fault
		if p.faultFor != nil {
			f = p.faultFor(r, nth)
		}
		switch {
		case f == nil:
			ev.passed = true
			rec := &statusRecorder{ResponseWriter: w}
			rp.ServeHTTP(rec, r)
			ev.status = rec.status
		case f.reset:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				raw := conn
				if tc, ok := conn.(*tls.Conn); ok {
					raw = tc.NetConn()
				}
				if tcp, ok := raw.(*net.TCPConn); ok {
					_ = tcp.SetLinger(0) // close with RST
				}
				_ = raw.Close()
			}
		default:
			w.Header().Set("Retry-After", strconv.Itoa(f.retryAfter))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(f.status)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"injected by the fault proxy","code":` + strconv.Itoa(f.status) + `}`))
			ev.status = f.status
		}
		p.mu.Lock()
		p.events = append(p.events, ev)
		p.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	p.caPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	return p
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }

func (p *faultProxy) recorded() []proxyEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]proxyEvent(nil), p.events...)
}

// env points the provider at the proxy. It must be HTTPS: client-go sends no credentials over
// plain HTTP.
func (p *faultProxy) env(more ...string) []string {
	return append([]string{"KUBE_HOST=" + p.URL, "KUBE_CLUSTER_CA_CERT_DATA=" + p.caPEM}, more...)
}
