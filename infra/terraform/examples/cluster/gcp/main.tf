# A Slurm cluster of `nodes` Compute Engine instances of one machine type under one compact
# placement policy. cloud-init makes each instance a node with the scripts the tests' cluster runs
# (infra/terraform/cloud-init: slurm-node.sh); the munge key they share is a Secret Manager secret
# that only the nodes' service accounts may read, never in user data. The head (node 0) runs the
# multi-host suite through srun, uploads the run to GCS, and every node powers off. ../README.md
# walks through it.
locals {
  suite_path = coalesce(var.suite_path, "${path.root}/../../../../../benchmarks/suites/cluster_interconnect.yaml")
  name       = "pz-${var.execution_id}"
  region     = join("-", slice(split("-", var.zone), 0, 2))
  tag        = "${local.name}-cluster"
  # Label values: lowercase letters, digits, '_' and '-'.
  labels = { for k, v in var.cost_tags : lower(k) => substr(replace(lower(v), "/[^a-z0-9_-]/", "-"), 0, 63) }
}

# The munge key: random, kept in Secret Manager (and in this configuration's state, which is
# therefore sensitive); each node's service account may read this one secret.
resource "random_password" "munge_key" {
  length  = 64
  special = false
}

resource "google_compute_resource_policy" "compact" {
  name    = "${local.name}-compact"
  project = var.project
  region  = local.region
  group_placement_policy {
    collocation = "COLLOCATED"
    vm_count    = var.nodes
  }
}

# Every protocol among the nodes (Slurm, MPI's and the benchmarks' ports, NFS), nothing else in.
resource "google_compute_firewall" "within" {
  name        = "${local.name}-cluster"
  project     = var.project
  network     = var.network
  direction   = "INGRESS"
  source_tags = [local.tag]
  target_tags = [local.tag]
  allow {
    protocol = "all"
  }
}

resource "google_secret_manager_secret" "munge_key" {
  project   = var.project
  secret_id = "${local.name}-munge"
  labels    = local.labels
  replication {
    auto {}
  }
}

resource "google_secret_manager_secret_version" "munge_key" {
  secret      = google_secret_manager_secret.munge_key.id
  secret_data = random_password.munge_key.result
}

module "node" {
  source = "../../../gcp"
  count  = var.nodes

  name               = "${local.name}-node${count.index}"
  project            = var.project
  zone               = var.zone
  network            = var.network
  subnetwork         = var.subnetwork
  assign_public_ip   = false
  machine_type       = var.instance_type
  results_bucket     = var.results_bucket
  results_prefix     = var.results_prefix
  image_reference    = "perfzero-cpp:cluster-{arch}" # unused: a cluster's head runs the packages
  suite_path         = local.suite_path
  execution_id       = var.execution_id
  execution_label    = "cluster"
  time_limit_minutes = var.time_limit_minutes
  ssh_cidr           = var.ssh_cidr
  labels             = local.labels
  cluster = {
    size             = var.nodes
    index            = count.index
    first_host       = var.first_host
    munge_key_secret = google_secret_manager_secret_version.munge_key.secret # after the key is in
    package_objects  = var.package_objects
    placement_policy = google_compute_resource_policy.compact.self_link
    network_tag      = local.tag
  }
}
