# A cost/performance matrix: one benchmark instance per shape, across AWS, GCP and OCI. Each runs
# the same suite in the perfzero container, uploads its run directory and a DONE (or FAILED) marker
# to its cloud's bucket, and powers off.
locals {
  suite_path = coalesce(var.suite_path, "${path.root}/../../../../benchmarks/suites/cpu_standard.yaml")
  # A stable, readable key per shape: "aws-c7g-xlarge", "oci-vm-standard-a1-flex-4".
  keyed = { for s in var.shapes :
    "${s.cloud}-${replace(lower(s.shape), "/[^a-z0-9]+/", "-")}${s.ocpus == null ? "" : "-${s.ocpus}"}" => s
  }
  aws   = var.aws == null ? {} : { for k, s in local.keyed : k => s if s.cloud == "aws" }
  gcp   = var.gcp == null ? {} : { for k, s in local.keyed : k => s if s.cloud == "gcp" }
  oci   = var.oci == null ? {} : { for k, s in local.keyed : k => s if s.cloud == "oci" }
  azure = var.azure == null ? {} : { for k, s in local.keyed : k => s if s.cloud == "azure" }
}

module "aws" {
  source   = "../../aws"
  for_each = local.aws

  name                 = replace(substr("pz-${var.execution_id}-${substr(each.key, 4, 40)}", 0, 38), "/-+$/", "")
  instance_type        = each.value.shape
  subnet_id            = var.aws.subnet_id
  results_bucket       = var.aws.bucket
  results_prefix       = var.results_prefix
  image_reference      = var.image_reference
  image_archive_object = var.image_archive_object
  suite_path           = local.suite_path
  execution_id         = var.execution_id
  time_limit_minutes   = var.time_limit_minutes
  ssh_cidr             = var.ssh_cidr
  tags                 = var.cost_tags
  capacity             = var.aws.capacity
}

module "gcp" {
  source   = "../../gcp"
  for_each = local.gcp

  name                 = replace(substr("pz-${var.execution_id}-${substr(each.key, 4, 40)}", 0, 42), "/-+$/", "")
  project              = var.gcp.project
  zone                 = var.gcp.zone
  network              = var.gcp.network
  machine_type         = each.value.shape
  results_bucket       = var.gcp.bucket
  results_prefix       = var.results_prefix
  image_reference      = var.image_reference
  image_archive_object = var.image_archive_object
  suite_path           = local.suite_path
  execution_id         = var.execution_id
  time_limit_minutes   = var.time_limit_minutes
  capacity             = var.gcp.capacity
  ssh_cidr             = var.ssh_cidr
  labels               = var.cost_tags
}

module "oci" {
  source   = "../../oci"
  for_each = local.oci

  name                     = replace(substr("pz-${var.execution_id}-${substr(each.key, 4, 40)}", 0, 63), "/-+$/", "")
  tenancy_ocid             = var.oci.tenancy_ocid
  compartment_ocid         = var.oci.compartment_ocid
  availability_domain      = var.oci.availability_domain
  vcn_ocid                 = var.oci.vcn_ocid
  subnet_ocid              = var.oci.subnet_ocid
  shape                    = each.value.shape
  ocpus                    = each.value.ocpus
  memory_in_gbs            = each.value.memory
  results_bucket           = var.oci.bucket
  object_storage_namespace = var.oci.namespace
  results_prefix           = var.results_prefix
  image_reference          = var.image_reference
  image_archive_object     = var.image_archive_object
  suite_path               = local.suite_path
  execution_id             = var.execution_id
  time_limit_minutes       = var.time_limit_minutes
  capacity                 = var.oci.capacity
  ssh_cidr                 = var.ssh_cidr
  freeform_tags            = var.cost_tags
}

module "azure" {
  source   = "../../azure"
  for_each = local.azure

  name                    = replace(substr("pz-${var.execution_id}-${trimprefix(each.key, "azure-")}", 0, 60), "/-+$/", "")
  resource_group_name     = var.azure.resource_group_name
  location                = var.azure.location
  subnet_id               = var.azure.subnet_id
  vm_size                 = each.value.shape
  storage_account_name    = var.azure.storage_account_name
  storage_account_id      = var.azure.storage_account_id
  results_container       = var.azure.container
  results_prefix          = var.results_prefix
  image_reference         = var.image_reference
  image_archive_object    = var.image_archive_object
  image_archive_container = var.azure.container
  suite_path              = local.suite_path
  execution_id            = var.execution_id
  time_limit_minutes      = var.time_limit_minutes
  ssh_cidr                = var.ssh_cidr
  admin_ssh_public_key    = var.azure.admin_ssh_public_key
  capacity                = var.azure.capacity
  tags                    = var.cost_tags
}
