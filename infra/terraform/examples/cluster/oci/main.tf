# A Slurm cluster of `nodes` bare-metal instances of one RDMA shape in one OCI cluster network
# (an instance pool on the shape's RDMA fabric). Every node is launched from one instance
# configuration, so all share one user data: cloud-init's cluster input `discover` makes each node
# read the hosts from an object this configuration writes once the pool exists, and find its place
# by its own address (infra/terraform/cloud-init: perfzero-cluster.sh). The munge key is a Vault
# secret that only the nodes may read, never in user data. The head (the first address) runs the
# multi-host suite through srun, uploads the run to Object Storage, and every node powers off.
# ../README.md walks through it.
locals {
  suite_path = coalesce(var.suite_path, "${path.root}/../../../../../benchmarks/suites/cluster_interconnect.yaml")
  name       = "pz-${var.execution_id}"
  tags       = merge(var.cost_tags, { "perfzero-run" = local.name, "perfzero-execution" = var.execution_id })
  # The shapes a cluster network takes: bare-metal GPU and HPC shapes with an RDMA network interface,
  # by name (OCI docs, "Cluster Networks with Instance Pools", "Supported Shapes", read 2026-11);
  # other BM.GPU shapes (A10, T1, GPU2, GPU3) have no RDMA fabric.
  cluster_network_supported = contains([
    "BM.GPU4.8", "BM.GPU.B4.8", "BM.GPU.A100-v2.8", "BM.GPU.H100.8", "BM.GPU.H200.8", "BM.GPU.B200.8",
    "BM.GPU.GB200.4", "BM.GPU.MI300X.8", "BM.HPC2.36", "BM.HPC.E5.144", "BM.Optimized3.36",
  ], var.shape)
  dynamic_group = "${local.name}-cluster"
  hosts_object  = module.cloud_init.cluster_hosts_object
}

# The munge key: random, kept in a Vault secret (and in this configuration's state, which is
# therefore sensitive); the nodes' dynamic group may read this one secret.
resource "random_password" "munge_key" {
  length  = 64
  special = false
}

resource "oci_vault_secret" "munge_key" {
  compartment_id = var.compartment_ocid
  vault_id       = var.vault_ocid
  key_id         = var.vault_key_ocid
  secret_name    = "${local.name}-munge"
  description    = "munge key of perfzero cluster ${var.execution_id}"
  freeform_tags  = local.tags
  secret_content {
    content_type = "BASE64"
    content      = base64encode(random_password.munge_key.result)
  }
}

module "cloud_init" {
  source = "../../../cloud-init"

  cloud                = "oci"
  shape                = var.shape
  image_reference      = "perfzero-cpp:cluster-{arch}" # unused: a cluster's head runs the packages
  image_archive_bucket = var.results_bucket
  suite_yaml           = file(local.suite_path)
  execution_id         = var.execution_id
  execution_label      = "cluster"
  results_bucket       = var.results_bucket
  results_prefix       = var.results_prefix
  oci_namespace        = var.object_storage_namespace
  time_limit_minutes   = var.time_limit_minutes
  cluster = {
    size             = var.nodes
    discover         = true
    munge_key_secret = oci_vault_secret.munge_key.id
    package_objects  = var.package_objects
  }
}

data "oci_core_images" "ubuntu" {
  count                    = var.image_ocid == null ? 1 : 0
  compartment_id           = var.compartment_ocid
  operating_system         = "Canonical Ubuntu"
  operating_system_version = "22.04"
  shape                    = var.shape
  sort_by                  = "TIMECREATED"
  sort_order               = "DESC"
}

# The nodes' group: every protocol among them (Slurm, MPI, the benchmarks' ports, NFS), egress for
# packages and Object Storage, nothing else in.
resource "oci_core_network_security_group" "cluster" {
  compartment_id = var.compartment_ocid
  vcn_id         = var.vcn_ocid
  display_name   = "${local.name}-cluster"
  freeform_tags  = local.tags
}

resource "oci_core_network_security_group_security_rule" "within" {
  network_security_group_id = oci_core_network_security_group.cluster.id
  direction                 = "INGRESS"
  protocol                  = "all"
  source                    = oci_core_network_security_group.cluster.id
  source_type               = "NETWORK_SECURITY_GROUP"
  description               = "every protocol from the cluster's nodes"
}

resource "oci_core_network_security_group_security_rule" "egress" {
  network_security_group_id = oci_core_network_security_group.cluster.id
  direction                 = "EGRESS"
  protocol                  = "all"
  destination               = "0.0.0.0/0"
  destination_type          = "CIDR_BLOCK"
  description               = "packages, object storage, the vault"
}

resource "oci_core_instance_configuration" "node" {
  compartment_id = var.compartment_ocid
  display_name   = "${local.name}-node"
  freeform_tags  = local.tags
  # A new user data (another execution_id) is a new configuration, made before the pool lets go of
  # the old one; the cluster network is then made anew with it (replace_triggered_by there).
  lifecycle {
    create_before_destroy = true
  }
  instance_details {
    instance_type = "compute"
    launch_details {
      compartment_id                      = var.compartment_ocid
      shape                               = var.shape
      display_name                        = "${local.name}-node"
      freeform_tags                       = local.tags
      is_pv_encryption_in_transit_enabled = true
      # Compressed, as the oci module's: OCI takes 32,000 bytes of metadata in all.
      metadata = { user_data = base64gzip(module.cloud_init.user_data) }
      source_details {
        source_type             = "image"
        image_id                = var.image_ocid != null ? var.image_ocid : data.oci_core_images.ubuntu[0].images[0].id
        boot_volume_size_in_gbs = var.boot_volume_gb
      }
      create_vnic_details {
        subnet_id        = var.subnet_ocid
        assign_public_ip = false
        nsg_ids          = [oci_core_network_security_group.cluster.id]
        freeform_tags    = local.tags
      }
      # The metadata service's v2 endpoints only (OCI's counterpart of IMDSv2).
      instance_options {
        are_legacy_imds_endpoints_disabled = true
      }
    }
  }
}

resource "oci_core_cluster_network" "this" {
  compartment_id = var.compartment_ocid
  display_name   = "${local.name}-cluster"
  freeform_tags  = local.tags
  instance_pools {
    instance_configuration_id = oci_core_instance_configuration.node.id
    size                      = var.nodes
    display_name              = "${local.name}-pool"
  }
  placement_configuration {
    availability_domain = var.availability_domain
    primary_subnet_id   = var.subnet_ocid
  }
  lifecycle {
    replace_triggered_by = [oci_core_instance_configuration.node.id]
    precondition {
      condition     = local.cluster_network_supported
      error_message = "A cluster network takes the bare-metal RDMA shapes only (BM.GPU4.8, BM.GPU.A100-v2.8, BM.GPU.H100.8, BM.HPC2.36, BM.Optimized3.36 ...: local.cluster_network_supported): for other shapes use one instance per node (the oci module)."
    }
  }
}

# The nodes as the pool made them, and their addresses: the hosts object names them in address
# order (node 0, the head, first), and each node finds itself in it.
data "oci_core_instance_pool_instances" "nodes" {
  compartment_id   = var.compartment_ocid
  instance_pool_id = oci_core_cluster_network.this.instance_pools[0].id
}

data "oci_core_instance" "node" {
  count       = var.nodes
  instance_id = data.oci_core_instance_pool_instances.nodes.instances[count.index].id
}

locals {
  # Sorted as text ("10.0.0.100" before "10.0.0.20"): any order every node reads alike will do.
  addresses = sort([for n in data.oci_core_instance.node : n.private_ip])
  hosts     = join(" ", [for i, address in local.addresses : "pz-node${i}=${address}"])
}

# Written after the grants, so that a node that reads it may also do the rest.
resource "oci_objectstorage_object" "hosts" {
  namespace    = var.object_storage_namespace
  bucket       = var.results_bucket
  object       = local.hosts_object
  content      = "${local.hosts}\n"
  content_type = "text/plain"
  depends_on   = [oci_identity_policy.nodes]
  lifecycle {
    # Every node has its own address, or none would know its place.
    precondition {
      condition     = length(distinct(compact(local.addresses))) == var.nodes
      error_message = "The cluster network's instances do not each have a private address yet: ${join(", ", local.addresses)}."
    }
  }
}

# The nodes' identity: a dynamic group of exactly the pool's instances (their ids are known once the
# pool exists; until then the nodes' reads are refused, and they ask again), allowed to create
# objects under the run's prefix, read the hosts object, the packages and the munge key; nothing else.
resource "oci_identity_dynamic_group" "nodes" {
  compartment_id = var.tenancy_ocid
  name           = local.dynamic_group
  description    = "perfzero cluster ${var.execution_id}: its nodes"
  matching_rule  = "ANY {${join(", ", [for n in data.oci_core_instance_pool_instances.nodes.instances : "instance.id = '${n.id}'"])}}"
  freeform_tags  = local.tags
}

resource "oci_identity_policy" "nodes" {
  compartment_id = var.compartment_ocid
  name           = "${local.name}-cluster"
  description    = "perfzero cluster ${var.execution_id}: its nodes write their run and read what they need"
  freeform_tags  = local.tags
  statements = concat(
    ["Allow dynamic-group ${oci_identity_dynamic_group.nodes.name} to manage objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${var.results_bucket}', request.permission = 'OBJECT_CREATE', target.object.name = /${module.cloud_init.results_path}/*/}",
    "Allow dynamic-group ${oci_identity_dynamic_group.nodes.name} to read objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${var.results_bucket}', target.object.name = '${local.hosts_object}'}"],
    [for package_object in module.cloud_init.package_objects :
    "Allow dynamic-group ${oci_identity_dynamic_group.nodes.name} to read objects in compartment id ${var.compartment_ocid} where all {target.bucket.name = '${var.results_bucket}', target.object.name = '${package_object}'}"],
    ["Allow dynamic-group ${oci_identity_dynamic_group.nodes.name} to read secret-bundles in compartment id ${var.compartment_ocid} where target.secret.id = '${oci_vault_secret.munge_key.id}'"],
  )
}
