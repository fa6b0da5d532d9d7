# Credentials come from gcloud's application default credentials; none are written here or reach
# the instances, which use their own service account.
provider "google" {
  project        = var.project
  default_labels = local.labels
}
