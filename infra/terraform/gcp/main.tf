# One Compute Engine instance that runs the perfzero container once, uploads its results to GCS and
# powers off.
module "cloud_init" {
  source = "../cloud-init"

  cloud                = "gcp"
  shape                = var.machine_type
  gpu                  = var.accelerator_type != null ? true : null
  system_name          = var.system_name
  image_reference      = var.image_reference
  image_archive_object = var.image_archive_object
  image_archive_bucket = var.image_archive_bucket
  suite_yaml           = file(var.suite_path)
  execution_id         = var.execution_id
  execution_label      = var.execution_label
  results_bucket       = var.results_bucket
  results_prefix       = var.results_prefix
  time_limit_minutes   = var.time_limit_minutes
  capacity             = var.capacity
  cluster = var.cluster == null ? null : {
    size             = var.cluster.size
    index            = var.cluster.index
    subnet_cidr      = data.google_compute_subnetwork.cluster[0].ip_cidr_range
    first_host       = var.cluster.first_host
    munge_key_secret = var.cluster.munge_key_secret
    package_objects  = var.cluster.package_objects
  }
}

# A cluster node's fixed address comes from its subnetwork's range; the subnetwork is named
# projects/P/regions/R/subnetworks/NAME, or by that path's https:// URL.
data "google_compute_subnetwork" "cluster" {
  count   = var.cluster == null ? 0 : 1
  project = try(local.subnetwork_path[0], null)
  region  = try(local.subnetwork_path[1], null)
  name    = try(local.subnetwork_path[2], null)
  lifecycle {
    precondition {
      condition     = length(local.subnetwork_path) == 3
      error_message = "A cluster node needs subnetwork as projects/P/regions/R/subnetworks/NAME (or its URL): its fixed address comes from that range."
    }
  }
}

locals {
  # Label values: lowercase letters, digits, '_' and '-', at most 63 characters.
  label = { for k, v in {
    "perfzero-run"       = var.name
    "perfzero-execution" = var.execution_id
    "perfzero-system"    = module.cloud_init.system_name
  } : k => substr(replace(lower(v), "/[^a-z0-9_-]/", "-"), 0, 63) }
  labels = merge(var.labels, local.label)
  image = coalesce(var.image, module.cloud_init.architecture == "arm64" ?
  "ubuntu-os-cloud/ubuntu-2204-lts-arm64" : "ubuntu-os-cloud/ubuntu-2204-lts")
  gpu  = module.cloud_init.gpu
  spot = var.capacity == "spot"
  subnetwork_path = try(regex("projects/([^/]+)/regions/([^/]+)/subnetworks/([^/]+)$", coalesce(var.subnetwork, "-")),
  [])

  # Compact placement takes these machine series (Compute Engine docs, "About compact placement
  # policies", read 2026-11); no shared-core or E2 machines.
  compact_placement_supported = can(regex("^(a2|a3|a4|c2|c2d|c3|c3d|c4|c4d|g2|h3|h4d|n2|n2d|z3)-", var.machine_type))
}

resource "google_compute_instance" "this" {
  name         = var.name
  project      = var.project
  zone         = var.zone
  machine_type = var.machine_type
  labels       = local.labels
  tags         = concat(["perfzero-${var.name}"], var.cluster == null ? [] : [var.cluster.network_tag])

  # A cluster's nodes share one compact placement policy: close together in the zone.
  resource_policies = var.cluster == null ? null : [var.cluster.placement_policy]

  boot_disk {
    kms_key_self_link = var.boot_disk_kms_key
    initialize_params {
      image  = local.image
      size   = var.boot_disk_gb
      labels = local.labels
    }
  }

  network_interface {
    network    = var.subnetwork == null ? var.network : null
    subnetwork = var.subnetwork
    network_ip = module.cloud_init.cluster_address
    dynamic "access_config" {
      for_each = var.assign_public_ip ? [1] : []
      content {}
    }
  }

  dynamic "guest_accelerator" {
    for_each = var.accelerator_type == null ? [] : [1]
    content {
      type  = var.accelerator_type
      count = var.accelerator_count
    }
  }

  metadata = {
    user-data              = module.cloud_init.user_data
    enable-oslogin         = "TRUE"
    block-project-ssh-keys = "TRUE"
  }

  service_account {
    email  = google_service_account.this.email
    scopes = ["cloud-platform"] # what it may do is decided by IAM (iam.tf), not by scopes
  }

  scheduling {
    # GPU instances cannot live-migrate, nor can compactly placed ones or Spot VMs; a restarted
    # cluster node would rejoin a run that has gone on without it.
    on_host_maintenance = local.gpu || var.cluster != null || local.spot ? "TERMINATE" : "MIGRATE"
    automatic_restart   = !local.gpu && var.cluster == null && !local.spot
    # Spot: deleted, not stopped, when taken back, so that the next apply creates a replacement
    # whose cloud-init runs afresh and resumes the run from what was uploaded (iam.tf).
    provisioning_model          = local.spot ? "SPOT" : "STANDARD"
    preemptible                 = local.spot
    instance_termination_action = local.spot ? "DELETE" : null
  }

  shielded_instance_config {
    # Secure Boot refuses an unsigned NVIDIA driver built on the instance.
    enable_secure_boot          = !local.gpu
    enable_vtpm                 = true
    enable_integrity_monitoring = true
  }

  # The grants first: a cluster node reads its secret and packages within a minute of boot.
  depends_on = [google_storage_bucket_iam_member.write_results, google_secret_manager_secret_iam_member.munge_key,
  google_storage_bucket_iam_member.read_package]

  # The instance powers itself off at the end; re-applying must not start it again.
  desired_status = "RUNNING"
  lifecycle {
    ignore_changes = [desired_status]
    precondition {
      condition     = var.cluster == null || local.compact_placement_supported
      error_message = "${var.machine_type} cannot be placed compactly (compact_placement_supported in infra/terraform/gcp/main.tf): pick another series for a cluster."
    }
  }
}

# SSH only when a CIDR is given; Compute Engine allows egress by default.
resource "google_compute_firewall" "ssh" {
  count         = var.ssh_cidr == null ? 0 : 1
  name          = "${var.name}-ssh"
  project       = var.project
  network       = var.network
  direction     = "INGRESS"
  source_ranges = [var.ssh_cidr]
  target_tags   = ["perfzero-${var.name}"]
  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}
