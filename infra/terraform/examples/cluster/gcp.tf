# The cluster on GCP: a compact placement policy, a firewall rule open among the nodes' tag, the
# munge key in Secret Manager, and the nodes (../../gcp with its cluster input).
locals {
  gcp_region = var.gcp == null ? "" : join("-", slice(split("-", var.gcp.zone), 0, 2))
  gcp_tag    = "${local.name}-cluster"
  # Label values: lowercase letters, digits, '_' and '-'.
  gcp_labels = { for k, v in var.cost_tags : lower(k) => substr(replace(lower(v), "/[^a-z0-9_-]/", "-"), 0, 63) }
}

resource "google_compute_resource_policy" "compact" {
  count   = local.gcp_nodes > 0 ? 1 : 0
  name    = "${local.name}-compact"
  project = var.gcp.project
  region  = local.gcp_region
  group_placement_policy {
    collocation = "COLLOCATED"
    vm_count    = var.nodes
  }
}

# Every protocol among the nodes (Slurm, MPI's and the benchmarks' ports, NFS), nothing else in.
resource "google_compute_firewall" "within" {
  count       = local.gcp_nodes > 0 ? 1 : 0
  name        = "${local.name}-cluster"
  project     = var.gcp.project
  network     = var.gcp.network
  direction   = "INGRESS"
  source_tags = [local.gcp_tag]
  target_tags = [local.gcp_tag]
  allow {
    protocol = "all"
  }
}

resource "google_secret_manager_secret" "munge_key" {
  count     = local.gcp_nodes > 0 ? 1 : 0
  project   = var.gcp.project
  secret_id = "${local.name}-munge"
  labels    = local.gcp_labels
  replication {
    auto {}
  }
}

resource "google_secret_manager_secret_version" "munge_key" {
  count       = local.gcp_nodes > 0 ? 1 : 0
  secret      = google_secret_manager_secret.munge_key[0].id
  secret_data = random_password.munge_key.result
}

module "gcp_node" {
  source = "../../gcp"
  count  = local.gcp_nodes

  name               = "${local.name}-node${count.index}"
  project            = var.gcp.project
  zone               = var.gcp.zone
  network            = var.gcp.network
  subnetwork         = var.gcp.subnetwork
  assign_public_ip   = false
  machine_type       = local.instance_type
  results_bucket     = var.results_bucket
  results_prefix     = var.results_prefix
  image_reference    = "perfzero-cpp:cluster-{arch}" # unused: a cluster's head runs the packages
  suite_path         = local.suite_path
  execution_id       = var.execution_id
  execution_label    = "cluster"
  time_limit_minutes = var.time_limit_minutes
  ssh_cidr           = var.ssh_cidr
  labels             = local.gcp_labels
  cluster = {
    size             = var.nodes
    index            = count.index
    first_host       = var.first_host
    munge_key_secret = google_secret_manager_secret.munge_key[0].id
    package_objects  = var.package_objects
    placement_policy = google_compute_resource_policy.compact[0].self_link
    network_tag      = local.gcp_tag
  }

  # The key must be there before a node asks for it.
  depends_on = [google_secret_manager_secret_version.munge_key]
}
