// Package validate checks the objects the provider writes with the code the apiserver runs on
// them, offline: a custom resource's CRD structural schema (defaulting, pruning, OpenAPI schema,
// list types, embedded metadata) and its x-kubernetes-validations CEL rules, with
// k8s.io/apiextensions-apiserver's own libraries and the apiserver's cost limits, from the CRDs of
// the versions pinned in go.mod (crds/ for Kueue, Argo and prometheus-operator; Karpenter's are
// compiled into its Go module), and around those checks upstream's own admission webhook code
// where it exports it (mutation.go, admission.go). The built-in kinds the provider writes
// (builtin.go) get the apiserver's own validation of that kind where it is importable. It knows
// nothing of Terraform: errors are upstream's field.ErrorList, with upstream's paths and words.
package validate
