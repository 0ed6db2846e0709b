package acctest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// Write is a create, update, patch or delete that the apiserver accepted (answered 2xx), as its
// audit log records it. Dry runs are not writes.
type Write struct {
	Verb      string
	Group     string
	Resource  string // with "/<subresource>" when it wrote one
	Namespace string
	Name      string
}

func (w Write) String() string {
	r := w.Resource
	if w.Group != "" {
		res, sub, _ := strings.Cut(r, "/")
		r = res + "." + w.Group
		if sub != "" {
			r += "/" + sub
		}
	}
	return fmt.Sprintf("%s %s %s", w.Verb, r, objectName(w.Namespace, w.Name))
}

// Writes are what the apiserver accepted, in the order it logged them.
type Writes []Write

func (ws Writes) String() string {
	lines := make([]string, len(ws))
	for i, w := range ws {
		lines[i] = w.String()
	}
	return strings.Join(lines, "\n")
}

// Of is the writes of objects of kinds (any subresource).
func (ws Writes) Of(kinds ...kube.Kind) Writes {
	var out Writes
	for _, w := range ws {
		res, _, _ := strings.Cut(w.Resource, "/")
		for _, k := range kinds {
			if k.GVR.Group == w.Group && k.GVR.Resource == res {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// Has reports whether one of the writes is of object namespace/name of kind k.
func (ws Writes) Has(k kube.Kind, namespace, name string) bool {
	for _, w := range ws.Of(k) {
		if w.Namespace == namespace && w.Name == name {
			return true
		}
	}
	return false
}

// WriteRecorder is an identity for the provider whose every write the apiserver itself records:
// a test that claims a refused step wrote nothing has the provider use it (ProviderSetting) and
// asks the apiserver's record (Take, ExpectNone). The record is the apiserver's audit log, which
// sees every resource and subresource, including the ValidatingAdmissionPolicies and bindings no
// admission webhook is ever called for, and nothing of other tests, controllers or the test's own
// setup, which write under other identities.
type WriteRecorder struct {
	user       string // the service account's user name
	kubeconfig string
	log        string
	client     kubernetes.Interface // as the recorded identity
	mu         sync.Mutex
	offset     int64 // of the first log line not yet read
	syncs      int
}

// recorders counts RecordWrites' identities, which it names.
var recorders atomic.Int64

// RecordWrites creates a service account allowed everything (or exactly rules, when given) and
// starts recording its writes. It skips the test without TF_ACC, and on a cluster other than the
// test binary's own control plane, whose apiserver is the one that writes the audit log
// (testcluster.AuditedNamespace); call it before resource.Test.
func RecordWrites(t *testing.T, rules ...rbacv1.PolicyRule) *WriteRecorder {
	t.Helper()
	RequireCluster(t)
	if !ownCluster || cluster.AuditLog == "" {
		t.Skip("proves what a step wrote from the apiserver's audit log, which only the test binary's own control plane writes, not KUBECONFIG's cluster")
	}
	if len(rules) == 0 {
		rules = []rbacv1.PolicyRule{
			{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}},
			{NonResourceURLs: []string{"*"}, Verbs: []string{"*"}},
		}
	}
	SharedNamespace(t, testcluster.AuditedNamespace)
	name := Name(fmt.Sprintf("writes-%d", recorders.Add(1)))
	token := serviceAccountToken(t, testcluster.AuditedNamespace, name, rules)
	r := &WriteRecorder{
		user:       "system:serviceaccount:" + testcluster.AuditedNamespace + ":" + name,
		kubeconfig: TokenKubeconfig(t, token),
		log:        cluster.AuditLog,
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", r.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	r.client = kubernetes.NewForConfigOrDie(cfg)
	if fi, err := os.Stat(r.log); err == nil {
		r.offset = fi.Size()
	}
	return r
}

// ProviderSetting is the provider argument that has the provider write as the recorded identity.
func (r *WriteRecorder) ProviderSetting() string {
	return fmt.Sprintf("config_path = %q", r.kubeconfig)
}

// Recorded is config with the provider writing as the recorded identity: ProviderSetting added to
// its provider block (as ProviderBlock writes it).
func (r *WriteRecorder) Recorded(config string) string {
	const block = "provider \"mlplatform\" {\n"
	if !strings.Contains(config, block) {
		panic("acctest: no provider block to record in:\n" + config)
	}
	return strings.Replace(config, block, block+"  "+r.ProviderSetting()+"\n", 1)
}

// Take returns what the provider wrote since the last Take (or since RecordWrites), once the
// apiserver has logged all of it: it sends a request of its own and reads until that is logged.
func (r *WriteRecorder) Take(t testing.TB) Writes {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncs++
	marker := fmt.Sprintf("write-recorder-sync-%d", r.syncs)
	// A dry run: logged like a write, never one. Refused for an identity without rights to
	// create ConfigMaps, and logged all the same.
	_, _ = r.client.CoreV1().ConfigMaps(testcluster.AuditedNamespace).Create(context.Background(),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: marker}},
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: marker})
	var writes Writes
	deadline := time.Now().Add(30 * time.Second)
	for {
		ws, synced, err := r.read(marker)
		if err != nil {
			t.Fatalf("reading the apiserver's audit log %s: %v", r.log, err)
		}
		writes = append(writes, ws...)
		if synced {
			return writes
		}
		if time.Now().After(deadline) {
			t.Fatalf("the apiserver's audit log %s did not record %s's request %s within 30s", r.log, r.user, marker)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ExpectNone fails the test if the provider wrote anything since the last Take (of kinds, when
// given), naming each write; during says what ran, for the message.
func (r *WriteRecorder) ExpectNone(t testing.TB, during string, kinds ...kube.Kind) {
	t.Helper()
	ws := r.Take(t)
	if len(kinds) > 0 {
		ws = ws.Of(kinds...)
	}
	if len(ws) > 0 {
		t.Errorf("%s wrote %d objects, want none (the apiserver's audit log):\n%s", during, len(ws), ws)
	}
}

// read reads the complete lines logged since offset and returns the recorded identity's writes,
// and whether the request with field manager marker was among them.
func (r *WriteRecorder) read(marker string) (Writes, bool, error) {
	f, err := os.Open(r.log)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if _, err := f.Seek(r.offset, io.SeekStart); err != nil {
		return nil, false, err
	}
	var writes Writes
	synced := false
	rd := bufio.NewReader(f)
	for {
		line, err := rd.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return writes, synced, nil // a partial line is read again next time
		}
		if err != nil {
			return nil, false, err
		}
		r.offset += int64(len(line))
		var ev auditv1.Event
		if err := json.Unmarshal(bytes.TrimSpace(line), &ev); err != nil {
			return nil, false, fmt.Errorf("decoding %q: %w", line, err)
		}
		if ev.User.Username != r.user || ev.Stage != auditv1.StageResponseComplete || ev.ObjectRef == nil {
			continue
		}
		u, err := url.Parse(ev.RequestURI)
		if err != nil {
			return nil, false, fmt.Errorf("request URI %q: %w", ev.RequestURI, err)
		}
		q := u.Query()
		if q.Get("fieldManager") == marker {
			synced = true
		}
		if q.Has("dryRun") || ev.ResponseStatus == nil || ev.ResponseStatus.Code < 200 || ev.ResponseStatus.Code > 299 {
			continue
		}
		ref := *ev.ObjectRef
		if ref.Resource == "namespaces" && ref.APIGroup == "" {
			ref.Namespace = "" // the apiserver names a namespace its own namespace; it is cluster-scoped
		}
		if ref.Subresource != "" {
			ref.Resource += "/" + ref.Subresource
		}
		writes = append(writes, Write{Verb: ev.Verb, Group: ref.APIGroup, Resource: ref.Resource, Namespace: ref.Namespace, Name: ref.Name})
	}
}
