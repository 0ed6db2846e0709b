package acctest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// The record is the recorded identity's accepted writes only: not another user's, not a dry run,
// not a request the apiserver refused; a line still being written is read once it is whole.
func TestWriteRecorder_read(t *testing.T) {
	const me = "system:serviceaccount:mlplatform-audited:writes-1"
	event := func(user, verb, uri string, code int, ref string) string {
		return `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","stage":"ResponseComplete",` +
			`"requestURI":"` + uri + `","verb":"` + verb + `","user":{"username":"` + user + `"},"objectRef":` + ref +
			`,"responseStatus":{"metadata":{},"code":` + strconv.Itoa(code) + `}}` + "\n"
	}
	ns := `{"resource":"namespaces","namespace":"team-a","name":"team-a","apiVersion":"v1"}` // as the apiserver logs it
	policy := `{"resource":"validatingadmissionpolicies","name":"p","apiGroup":"admissionregistration.k8s.io","apiVersion":"v1"}`
	status := `{"resource":"clusterqueues","name":"q","apiGroup":"kueue.x-k8s.io","apiVersion":"v1beta2","subresource":"status"}`
	log := event("someone-else", "patch", "/api/v1/namespaces/team-a?fieldManager=x", 200, ns) +
		event(me, "patch", "/api/v1/namespaces/team-a?dryRun=All&fieldManager=x", 200, ns) +
		event(me, "patch", "/api/v1/namespaces/team-a?fieldManager=x", 409, ns) +
		event(me, "patch", "/api/v1/namespaces/team-a?fieldManager=x", 200, ns) +
		event(me, "create", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", 201, policy) +
		event(me, "update", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/q/status", 200, status) +
		event(me, "create", "/api/v1/namespaces/mlplatform-audited/configmaps?dryRun=All&fieldManager=sync-1", 201,
			`{"resource":"configmaps","namespace":"mlplatform-audited","apiVersion":"v1"}`)
	path := filepath.Join(t.TempDir(), "audit.log")
	partial := event(me, "delete", "/api/v1/namespaces/team-a", 200, ns)
	if err := os.WriteFile(path, []byte(log+partial[:40]), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &WriteRecorder{user: me, log: path}
	ws, synced, err := r.read("sync-1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"patch namespaces team-a",
		"create validatingadmissionpolicies.admissionregistration.k8s.io p",
		"update clusterqueues.kueue.x-k8s.io/status q",
	}
	if got := lines(ws); !slices.Equal(got, want) || !synced {
		t.Errorf("read = %q, synced %v; want %q, synced", got, synced, want)
	}
	if err := os.WriteFile(path, []byte(log+partial), 0o600); err != nil {
		t.Fatal(err)
	}
	ws, synced, err = r.read("sync-2")
	if got := lines(ws); err != nil || synced || !slices.Equal(got, []string{"delete namespaces team-a"}) {
		t.Errorf("read after the line was completed = %q, synced %v, %v; want the delete alone, not synced", got, synced, err)
	}
}

func lines(ws Writes) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}
