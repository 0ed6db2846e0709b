// Package faulttest holds the provider's fault tests: Terraform (or OpenTofu) runs the provider
// binary against a real kube-apiserver that is stopped and started again, reached through a proxy
// that delays, resets and throttles, with credentials that lack a verb, or without Kueue's CRDs;
// and a corpus of bad configurations refused at plan without a single API call. Nothing is
// mocked. The tests run with TF_ACC=1, like the acceptance tests.
package faulttest
