# One OCI instance that runs the perfzero container once, uploads its results to Object Storage and
# powers off.
locals {
  flexible = endswith(var.shape, ".Flex")
}

module "cloud_init" {
  source = "../cloud-init"

  cloud                = "oci"
  shape                = var.shape
  system_name          = var.system_name
  ocpus                = local.flexible ? var.ocpus : null
  memory_gb            = local.flexible ? var.memory_in_gbs : null
  image_reference      = var.image_reference
  image_archive_object = var.image_archive_object
  image_archive_bucket = var.image_archive_bucket
  suite_yaml           = file(var.suite_path)
  execution_id         = var.execution_id
  execution_label      = var.execution_label
  results_bucket       = var.results_bucket
  results_prefix       = var.results_prefix
  oci_namespace        = var.object_storage_namespace
  time_limit_minutes   = var.time_limit_minutes
  capacity             = var.capacity
}

locals {
  tags = merge(var.freeform_tags, {
    "perfzero-run"       = var.name
    "perfzero-execution" = var.execution_id
    "perfzero-system"    = module.cloud_init.system_name
  })
  # Compressed: OCI takes 32,000 bytes of metadata in all, the runner and its scripts are more once
  # base64-encoded (cloud-init unpacks gzip).
  metadata = merge({ user_data = base64gzip(module.cloud_init.user_data) },
  var.ssh_public_key == null ? {} : { ssh_authorized_keys = var.ssh_public_key })
}

data "oci_core_images" "ubuntu" {
  count                    = var.image_ocid == null ? 1 : 0
  compartment_id           = var.compartment_ocid
  operating_system         = "Canonical Ubuntu"
  operating_system_version = "22.04"
  shape                    = var.shape # only images that boot on it: aarch64 ones for Arm shapes
  sort_by                  = "TIMECREATED"
  sort_order               = "DESC"
}

resource "oci_core_instance" "this" {
  compartment_id      = var.compartment_ocid
  availability_domain = var.availability_domain
  shape               = var.shape
  display_name        = var.name
  metadata            = local.metadata
  freeform_tags       = local.tags

  # Boot volume encryption in transit as well as at rest.
  is_pv_encryption_in_transit_enabled = true

  dynamic "shape_config" {
    for_each = local.flexible ? [1] : []
    content {
      ocpus         = var.ocpus
      memory_in_gbs = var.memory_in_gbs
    }
  }

  source_details {
    source_type             = "image"
    source_id               = var.image_ocid != null ? var.image_ocid : data.oci_core_images.ubuntu[0].images[0].id
    boot_volume_size_in_gbs = var.boot_volume_gb
    kms_key_id              = var.kms_key_ocid
  }

  create_vnic_details {
    subnet_id        = var.subnet_ocid
    assign_public_ip = var.assign_public_ip
    nsg_ids          = [oci_core_network_security_group.this.id]
    freeform_tags    = local.tags
  }

  # The metadata service's v2 endpoints only (OCI's counterpart of IMDSv2).
  instance_options {
    are_legacy_imds_endpoints_disabled = true
  }

  # Spot: a preemptible instance, terminated with its boot volume when OCI takes it back; the next
  # apply creates a replacement that resumes the run from what was uploaded (iam.tf).
  dynamic "preemptible_instance_config" {
    for_each = var.capacity == "spot" ? [1] : []
    content {
      preemption_action {
        type                 = "TERMINATE"
        preserve_boot_volume = false
      }
    }
  }

  lifecycle {
    precondition {
      condition     = !local.flexible || var.ocpus != null
      error_message = "shape ${var.shape} is flexible: set ocpus (and optionally memory_in_gbs)."
    }
    precondition {
      condition     = length(local.metadata.user_data) + length(coalesce(var.ssh_public_key, " ")) <= 32000
      error_message = "The instance's metadata is over OCI's 32,000 bytes: shorten suite_yaml."
    }
    # The instance powers itself off at the end; re-applying must not start it again.
    ignore_changes = [state]
  }
}

# No ingress unless ssh_cidr is given; egress for packages, the registry and Object Storage.
resource "oci_core_network_security_group" "this" {
  compartment_id = var.compartment_ocid
  vcn_id         = var.vcn_ocid
  display_name   = "${var.name}-perfzero"
  freeform_tags  = local.tags
}

resource "oci_core_network_security_group_security_rule" "egress" {
  network_security_group_id = oci_core_network_security_group.this.id
  direction                 = "EGRESS"
  protocol                  = "all"
  destination               = "0.0.0.0/0"
  destination_type          = "CIDR_BLOCK"
  description               = "packages, image registry, object storage"
}

resource "oci_core_network_security_group_security_rule" "ssh" {
  count                     = var.ssh_cidr == null ? 0 : 1
  network_security_group_id = oci_core_network_security_group.this.id
  direction                 = "INGRESS"
  protocol                  = "6" # TCP
  source                    = var.ssh_cidr
  source_type               = "CIDR_BLOCK"
  description               = "SSH from the operator's network only"
  tcp_options {
    destination_port_range {
      min = 22
      max = 22
    }
  }
}
