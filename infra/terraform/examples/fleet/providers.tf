# Credentials come from each cloud's usual place (AWS profile or environment, gcloud application
# default credentials, ~/.oci/config, `az login`); none are written here or reach the instances.
provider "aws" {
  region = var.aws.region
  default_tags {
    tags = var.cost_tags
  }
}

provider "google" {
  project        = var.gcp.project
  default_labels = var.cost_tags
}

provider "oci" {
  region = var.oci.region
}

provider "azurerm" {
  features {}
  subscription_id = var.azure.subscription_id
}
