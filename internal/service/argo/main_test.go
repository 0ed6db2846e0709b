package argo_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The local control plane serves the real Argo CRDs; no Argo controller runs yet.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }
