package testcluster

import (
	"os"
	"path/filepath"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// AuditedNamespace is the namespace of the service accounts whose writes the apiserver records in
// Cluster.AuditLog: a test that must know everything a step wrote has the provider write as one of
// them (acctest.RecordWrites). An audit log, not an admission webhook: the apiserver calls no
// webhook for ValidatingAdmissionPolicies and their bindings, which a team writes.
const AuditedNamespace = "mlplatform-audited"

// auditPolicy records, at the Metadata level (who, what, which object, the answer's code), every
// create, update, patch and delete by a service account of AuditedNamespace, of any resource and
// subresource, once it is answered; nothing else.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  userGroups: ["system:serviceaccounts:` + AuditedNamespace + `"]
  verbs: ["create", "update", "patch", "delete", "deletecollection"]
- level: None
`

// configureAudit writes the audit policy into dir and has the apiserver log what it selects to
// audit.log there, as JSON lines, before it answers each request (the log backend's blocking mode);
// it returns the log's path.
func configureAudit(s *envtest.APIServer, dir string) (string, error) {
	policy := filepath.Join(dir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o600); err != nil {
		return "", err
	}
	log := filepath.Join(dir, "audit.log")
	s.Configure().
		Set("audit-policy-file", policy).
		Set("audit-log-path", log).
		Set("audit-log-format", "json").
		Set("audit-log-mode", "blocking")
	return log, nil
}
