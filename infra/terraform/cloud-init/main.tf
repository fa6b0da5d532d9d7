# One cloud-init document per benchmark instance, shared by the aws, gcp and oci modules: it installs
# the runner and its per-cloud uploader, then runs the container once and powers the instance off.
locals {
  # Arm shapes: AWS Graviton families have a 'g' after the generation (c7g, m6gd, t4g, im4gn; a1 is
  # the first Graviton), GCP T2A/C4A/N4A, OCI Ampere A1/A2 and A4, Azure sizes with a 'p' among
  # their feature letters (Standard_D4ps_v5, Standard_E8pds_v6: Ampere Altra and Cobalt).
  arm_shape = {
    aws   = can(regex("^([a-z]+[0-9]+[a-z]*g[a-z0-9]*|a1)\\.", var.shape))
    gcp   = can(regex("^(t2a|c4a|n4a)-", var.shape))
    oci   = can(regex("^(VM|BM)\\.Standard\\.A[0-9]+\\.", var.shape))
    azure = can(regex("^Standard_[A-Z]+[0-9]+[a-z]*p[a-z]*_v[0-9]+$", var.shape))
  }
  gpu_shape = {
    aws   = can(regex("^(p[0-9]+[a-z]*|g[0-9]+[a-z]*)\\.", var.shape))
    gcp   = can(regex("^(a2|a3|a4|g2|g4)-", var.shape))
    oci   = can(regex("^(VM|BM)\\.GPU", var.shape))
    azure = can(regex("^Standard_N[CDGV]", var.shape))
  }
  architecture = coalesce(var.architecture, local.arm_shape[var.cloud] ? "arm64" : "amd64")
  gpu          = coalesce(var.gpu, local.gpu_shape[var.cloud])
  # A flexible shape's size is part of what is compared, so it is part of the name.
  flex_size   = var.ocpus == null ? "" : "-${var.ocpus}ocpu${var.memory_gb == null ? "" : "-${var.memory_gb}gb"}"
  system_name = coalesce(var.system_name, endswith(var.shape, ".Flex") ? "${var.shape}${local.flex_size}" : var.shape)

  image_reference      = replace(var.image_reference, "{arch}", local.architecture)
  image_archive_object = var.image_archive_object == null ? "" : replace(var.image_archive_object, "{arch}", local.architecture)
  image_archive_bucket = coalesce(var.image_archive_bucket, var.results_bucket)

  # Where this instance's results land; its identity may write only here.
  results_path = "${var.results_prefix}/${var.cloud}/${local.system_name}/${var.execution_id}"
  results_url = {
    aws   = "s3://${var.results_bucket}/${local.results_path}/"
    gcp   = "gs://${var.results_bucket}/${local.results_path}/"
    oci   = "oci://${var.results_bucket}@${coalesce(var.oci_namespace, "NAMESPACE")}/${local.results_path}/"
    azure = "https://${coalesce(var.azure_storage_account, "ACCOUNT")}.blob.core.windows.net/${var.results_bucket}/${local.results_path}/"
  }[var.cloud]

  perfzero_args = [
    "--config=/config/suite.yaml",
    "--platform_name=${var.cloud}",
    "--system_name=${local.system_name}",
    "--instance_type=${var.shape}",
    "--execution_label=${var.execution_label}",
    "--execution_id=${var.execution_id}",
    "--output_dir=/results/${var.execution_id}",
  ]

  run_env = templatefile("${path.module}/templates/run.env.tftpl", {
    cloud                = var.cloud
    execution_id         = var.execution_id
    image_reference      = local.image_reference
    image_archive_bucket = local.image_archive_bucket
    image_archive_object = local.image_archive_object
    results_bucket       = var.results_bucket
    results_path         = local.results_path
    oci_namespace        = var.oci_namespace == null ? "" : var.oci_namespace
    azure_account        = var.azure_storage_account == null ? "" : var.azure_storage_account
    gpu                  = local.gpu
    time_limit_minutes   = var.time_limit_minutes
    shape                = var.shape
    capacity             = var.capacity
  })
  run_container = templatefile("${path.module}/templates/run-container.sh.tftpl", {
    gpu             = local.gpu
    image_reference = local.image_reference
    perfzero_args   = local.perfzero_args
  })

  # An Azure VM that powers itself off stays allocated, and billed: it deallocates itself instead.
  extra_files = var.cloud == "azure" ? {
    "/usr/local/lib/perfzero/azure-deallocate.sh" = file("${path.module}/scripts/azure-deallocate.sh")
  } : {}

  user_data = templatefile("${path.module}/templates/cloud-config.yaml.tftpl", {
    cloud              = var.cloud
    shape              = var.shape
    architecture       = local.architecture
    gpu                = local.gpu
    time_limit_minutes = var.time_limit_minutes
    suite_b64          = base64encode(var.suite_yaml)
    files = merge(local.extra_files, {
      "/etc/perfzero/run.env"                           = local.run_env
      "/usr/local/lib/perfzero/perfzero-runner.sh"      = file("${path.module}/scripts/perfzero-runner.sh")
      "/usr/local/lib/perfzero/host-setup.sh"           = file("${path.module}/scripts/host-setup.sh")
      "/usr/local/lib/perfzero/run-container.sh"        = local.run_container
      "/usr/local/lib/perfzero/storage-${var.cloud}.sh" = file("${path.module}/scripts/storage-${var.cloud}.sh")
    })
  })
}
