package acctest

import (
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// runSuffix is drawn once per test binary: names built with Name are unique to this run, so two
// runs against one shared cluster (KUBECONFIG) never touch each other's objects.
var runSuffix = acctest.RandStringFromCharSet(5, "abcdefghijklmnopqrstuvwxyz0123456789")

// Name is prefix with this run's suffix, e.g. "acc-flavor-lifecycle-x7k2p": a valid DNS label
// while prefix is one of at most 57 characters.
func Name(prefix string) string { return prefix + "-" + runSuffix }
