# The connection attributes and KUBE_* variables are those of hashicorp/kubernetes.
provider "mlplatform" {
  config_path    = "~/.kube/config"
  config_context = "gpu-training"

  # Billing labels on every object the provider writes.
  default_labels = {
    "mlplatform.io/cost-centre"    = "cc-1234"
    "app.kubernetes.io/managed-by" = "terraform"
  }
}

# On EKS, with credentials from the AWS CLI:
provider "mlplatform" {
  alias                  = "eks"
  host                   = "https://ABCDEF0123456789.gr7.us-east-1.eks.amazonaws.com"
  cluster_ca_certificate = base64decode(var.cluster_ca)
  # On-demand prices of this region make the GPU node pools' supplies[*].hourly_price
  # (default us-east-1, the region of karpenter-provider-aws's price table).
  pricing_region = "us-east-1"

  exec {
    api_version = "client.authentication.k8s.io/v1beta1"
    command     = "aws"
    args        = ["eks", "get-token", "--cluster-name", "gpu-training"]
  }
}

variable "cluster_ca" {
  type        = string
  description = "Base64-encoded CA certificate of the cluster."
}
