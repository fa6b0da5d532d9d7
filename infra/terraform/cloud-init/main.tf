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
  flex_size = var.ocpus == null ? "" : "-${var.ocpus}ocpu${var.memory_gb == null ? "" : "-${var.memory_gb}gb"}"
  # A cluster is named for its size as well: three c6in.8xlarge are not one.
  cluster_size = var.cluster == null ? "" : "-x${var.cluster.size}"
  discover     = var.cluster == null ? false : var.cluster.discover
  cluster_hosts = var.cluster == null || local.discover ? [] : [for i in range(var.cluster.size) : {
    name    = "${var.cluster.name_prefix}${i}"
    address = cidrhost(var.cluster.subnet_cidr, var.cluster.first_host + i)
  }]
  system_name = coalesce(var.system_name, "${endswith(var.shape, ".Flex") ? "${var.shape}${local.flex_size}" : var.shape}${local.cluster_size}")

  image_reference      = replace(var.image_reference, "{arch}", local.architecture)
  image_archive_object = var.image_archive_object == null ? "" : replace(var.image_archive_object, "{arch}", local.architecture)
  image_archive_bucket = coalesce(var.image_archive_bucket, var.results_bucket)
  # A cluster node installs perfzero from these Debian packages (the head runs it on the host).
  package_objects = var.cluster == null ? [] : [for p in var.cluster.package_objects : replace(p, "{arch}", local.architecture)]

  # Where this instance's results land; its identity may write only here.
  results_path = "${var.results_prefix}/${var.cloud}/${local.system_name}/${var.execution_id}"
  # Where a discovering cluster's nodes read their hosts: beside the run, which records its cluster.
  cluster_hosts_object = "${local.results_path}/cluster-hosts.txt"
  results_url = {
    aws   = "s3://${var.results_bucket}/${local.results_path}/"
    gcp   = "gs://${var.results_bucket}/${local.results_path}/"
    oci   = "oci://${var.results_bucket}@${coalesce(var.oci_namespace, "NAMESPACE")}/${local.results_path}/"
    azure = "https://${coalesce(var.azure_storage_account, "ACCOUNT")}.blob.core.windows.net/${var.results_bucket}/${local.results_path}/"
  }[var.cloud]

  labels = [
    "--platform_name=${var.cloud}",
    "--system_name=${local.system_name}",
    "--instance_type=${var.shape}",
    "--execution_label=${var.execution_label}",
    "--execution_id=${var.execution_id}",
  ]
  perfzero_args = concat(["--config=/config/suite.yaml"], local.labels, ["--output_dir=/results/${var.execution_id}"])

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
    cluster              = var.cluster != null
    cluster_hosts        = join(" ", [for h in local.cluster_hosts : "${h.name}=${h.address}"])
    cluster_index        = var.cluster == null || local.discover ? "" : var.cluster.index
    cluster_hosts_object = local.discover ? local.cluster_hosts_object : ""
    munge_key_secret     = var.cluster == null ? "" : var.cluster.munge_key_secret
    package_objects      = join(" ", local.package_objects)
  })
  run_container = templatefile("${path.module}/templates/run-container.sh.tftpl", {
    gpu             = local.gpu
    image_reference = local.image_reference
    perfzero_args   = local.perfzero_args
  })

  # The scripts as shipped: without their comment lines (shellcheck's directives and shebangs kept),
  # since EC2 takes 16 KiB of user data, gzipped, and a cluster node's scripts are most of it. The
  # commented source is this folder's scripts/.
  scripts = { for name in fileset("${path.module}/scripts", "*.sh") : name => replace(replace(replace(
    file("${path.module}/scripts/${name}"), "# shellcheck", "#@shellcheck"), "/(?m)^[ \\t]*#( [^\\n]*)?\\n/", ""),
  "#@shellcheck", "# shellcheck") }

  # A cluster's node: perfzero-cluster.sh joins it to the Slurm cluster; the head runs perfzero on
  # the host, since srun starts the ranks on the nodes' own perfzero-rank.
  run_native = templatefile("${path.module}/templates/run-native.sh.tftpl", {
    labels       = local.labels
    execution_id = var.execution_id
  })
  cluster_files = var.cluster == null ? {} : {
    "/usr/local/lib/perfzero/perfzero-cluster.sh" = local.scripts["perfzero-cluster.sh"]
    "/usr/local/lib/perfzero/slurm-node.sh"       = local.scripts["slurm-node.sh"]
    "/usr/local/lib/perfzero/run-native.sh"       = local.run_native
  }
  entry_script = var.cluster == null ? "perfzero-runner.sh" : "perfzero-cluster.sh"

  # An Azure VM that powers itself off stays allocated, and billed: it deallocates itself instead.
  extra_files = merge(local.cluster_files, var.cloud == "azure" ? {
    "/usr/local/lib/perfzero/azure-deallocate.sh" = local.scripts["azure-deallocate.sh"]
  } : {})

  user_data = templatefile("${path.module}/templates/cloud-config.yaml.tftpl", {
    cloud              = var.cloud
    shape              = var.shape
    architecture       = local.architecture
    gpu                = local.gpu
    time_limit_minutes = var.time_limit_minutes
    suite_gz_b64       = base64gzip(var.suite_yaml)
    entry_script       = local.entry_script
    files = merge(local.extra_files, {
      "/etc/perfzero/run.env"                           = local.run_env
      "/usr/local/lib/perfzero/perfzero-runner.sh"      = local.scripts["perfzero-runner.sh"]
      "/usr/local/lib/perfzero/runner-lib.sh"           = local.scripts["runner-lib.sh"]
      "/usr/local/lib/perfzero/host-setup.sh"           = local.scripts["host-setup.sh"]
      "/usr/local/lib/perfzero/run-container.sh"        = local.run_container
      "/usr/local/lib/perfzero/storage-${var.cloud}.sh" = local.scripts["storage-${var.cloud}.sh"]
      }, contains(["azure", "gcp"], var.cloud) ? {
      "/usr/local/lib/perfzero/storage-rest.sh" = local.scripts["storage-rest.sh"]
    } : {})
  })
}
