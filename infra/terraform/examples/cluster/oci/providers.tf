# Credentials come from the OCI CLI's configuration (~/.oci/config) or the environment; none are
# written here or reach the instances, which act as their dynamic group (instance principal).
provider "oci" {
  region = var.region
}
