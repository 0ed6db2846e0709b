// Package moduletest runs the native tests of modules/ml-platform (`terraform test`, or `tofu test`)
// and checks the module's examples against real clusters: a local control plane with Kueue's
// controller manager, or the cluster KUBECONFIG names. Its tests need TF_ACC=1 and a CLI of
// Terraform 1.6 or newer, or OpenTofu, named by TF_ACC_TERRAFORM_PATH; the provider is built from
// this repository into a private filesystem mirror, so the CLI installs it offline.
package moduletest
