# Credentials come from AWS's usual places (a profile or the environment); none are written here or
# reach the instances, which use their own role.
provider "aws" {
  region = var.region
  default_tags {
    tags = var.cost_tags
  }
}
