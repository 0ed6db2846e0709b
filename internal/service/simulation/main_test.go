package simulation_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }
