# Credentials come from each cloud's usual places (an AWS profile or the environment, gcloud's
# application default credentials); none are written here or reach the instances, which use their
# own identity. The cloud not used is configured but never called: AWS's provider is told not to
# check credentials it will not use.
provider "aws" {
  region                      = var.aws == null ? "us-east-1" : var.aws.region
  skip_credentials_validation = var.cloud != "aws"
  skip_requesting_account_id  = var.cloud != "aws"
  default_tags {
    tags = var.cost_tags
  }
}

provider "google" {
  project        = var.gcp == null ? null : var.gcp.project
  default_labels = var.cost_tags
}
