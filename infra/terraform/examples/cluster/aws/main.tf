# A Slurm cluster of `nodes` EC2 instances of one type in one cluster placement group, each with an
# Elastic Fabric Adapter where the type has one. cloud-init makes each instance a node with the
# scripts the tests' cluster runs (infra/terraform/cloud-init: slurm-node.sh); the munge key they
# share is a Secrets Manager secret that only the nodes' roles may read, never in user data. The
# head (node 0) runs the multi-host suite through srun, uploads the run to S3, and every node
# powers off (and terminates). ../README.md walks through it.
locals {
  suite_path = coalesce(var.suite_path, "${path.root}/../../../../../benchmarks/suites/cluster_interconnect.yaml")
  name       = "pz-${var.execution_id}"
}

# The munge key: random, kept in Secrets Manager (and in this configuration's state, which is
# therefore sensitive); each node's role may read this one secret.
resource "random_password" "munge_key" {
  length  = 64
  special = false
}

data "aws_subnet" "this" {
  id = var.subnet_id
}

resource "aws_placement_group" "cluster" {
  name     = "${local.name}-cluster"
  strategy = "cluster"
  tags     = var.cost_tags
}

# The nodes' own group: open to itself (Slurm, MPI's and the benchmarks' ports, NFS, and EFA, which
# needs every protocol to and from the group), closed to everything else.
resource "aws_security_group" "cluster" {
  name_prefix = "${local.name}-cluster-"
  description = "perfzero cluster ${var.execution_id}: the nodes reach each other"
  vpc_id      = data.aws_subnet.this.vpc_id
  tags        = var.cost_tags
}

resource "aws_vpc_security_group_ingress_rule" "within" {
  security_group_id            = aws_security_group.cluster.id
  description                  = "every protocol from the cluster's nodes"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.cluster.id
  tags                         = var.cost_tags
}

resource "aws_vpc_security_group_egress_rule" "within" {
  security_group_id            = aws_security_group.cluster.id
  description                  = "every protocol to the cluster's nodes (EFA needs it)"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.cluster.id
  tags                         = var.cost_tags
}

resource "aws_secretsmanager_secret" "munge_key" {
  name_prefix             = "${local.name}-munge-"
  description             = "munge key of perfzero cluster ${var.execution_id}"
  recovery_window_in_days = 0 # a cluster's key dies with it
  tags                    = var.cost_tags
}

resource "aws_secretsmanager_secret_version" "munge_key" {
  secret_id     = aws_secretsmanager_secret.munge_key.id
  secret_string = random_password.munge_key.result
}

module "node" {
  source = "../../../aws"
  count  = var.nodes

  name               = "${local.name}-node${count.index}"
  instance_type      = var.instance_type
  subnet_id          = var.subnet_id
  results_bucket     = var.results_bucket
  results_prefix     = var.results_prefix
  image_reference    = "perfzero-cpp:cluster-{arch}" # unused: a cluster's head runs the packages
  suite_path         = local.suite_path
  execution_id       = var.execution_id
  execution_label    = "cluster"
  time_limit_minutes = var.time_limit_minutes
  ssh_cidr           = var.ssh_cidr
  key_name           = var.key_name
  tags               = var.cost_tags
  cluster = {
    size                 = var.nodes
    index                = count.index
    first_host           = var.first_host
    munge_key_secret_arn = aws_secretsmanager_secret_version.munge_key.arn # after the key is in
    package_objects      = var.package_objects
    placement_group      = aws_placement_group.cluster.id
    security_group_id    = aws_security_group.cluster.id
    efa                  = var.efa
  }
}
