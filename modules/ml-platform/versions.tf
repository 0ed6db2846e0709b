terraform {
  # optional() attribute defaults, preconditions and templated validation messages; `terraform test`
  # of tests/ needs 1.6 or newer (or OpenTofu).
  required_version = ">= 1.5.0"

  required_providers {
    mlplatform = {
      source  = "mlplatform/mlplatform"
      version = ">= 0.1.0"
    }
  }
}
