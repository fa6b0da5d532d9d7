# The cluster on AWS: a cluster placement group, the nodes' security group open to itself, the munge
# key in Secrets Manager, and the nodes (../../aws with its cluster input).
data "aws_subnet" "this" {
  count = local.aws_nodes > 0 ? 1 : 0
  id    = var.aws.subnet_id
}

resource "aws_placement_group" "cluster" {
  count    = local.aws_nodes > 0 ? 1 : 0
  name     = "${local.name}-cluster"
  strategy = "cluster"
  tags     = var.cost_tags
}

# The nodes' own group: open to itself (Slurm, MPI's and the benchmarks' ports, NFS, and EFA, which
# needs every protocol to and from the group), closed to everything else.
resource "aws_security_group" "cluster" {
  count       = local.aws_nodes > 0 ? 1 : 0
  name_prefix = "${local.name}-cluster-"
  description = "perfzero cluster ${var.execution_id}: the nodes reach each other"
  vpc_id      = data.aws_subnet.this[0].vpc_id
  tags        = var.cost_tags
}

resource "aws_vpc_security_group_ingress_rule" "within" {
  count                        = local.aws_nodes > 0 ? 1 : 0
  security_group_id            = aws_security_group.cluster[0].id
  description                  = "every protocol from the cluster's nodes"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.cluster[0].id
  tags                         = var.cost_tags
}

resource "aws_vpc_security_group_egress_rule" "within" {
  count                        = local.aws_nodes > 0 ? 1 : 0
  security_group_id            = aws_security_group.cluster[0].id
  description                  = "every protocol to the cluster's nodes (EFA needs it)"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.cluster[0].id
  tags                         = var.cost_tags
}

resource "aws_secretsmanager_secret" "munge_key" {
  count                   = local.aws_nodes > 0 ? 1 : 0
  name_prefix             = "${local.name}-munge-"
  description             = "munge key of perfzero cluster ${var.execution_id}"
  recovery_window_in_days = 0 # a cluster's key dies with it
  tags                    = var.cost_tags
}

resource "aws_secretsmanager_secret_version" "munge_key" {
  count         = local.aws_nodes > 0 ? 1 : 0
  secret_id     = aws_secretsmanager_secret.munge_key[0].id
  secret_string = random_password.munge_key.result
}

module "aws_node" {
  source = "../../aws"
  count  = local.aws_nodes

  name               = "${local.name}-node${count.index}"
  instance_type      = local.instance_type
  subnet_id          = var.aws.subnet_id
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
    munge_key_secret_arn = aws_secretsmanager_secret.munge_key[0].arn
    package_objects      = var.package_objects
    placement_group      = aws_placement_group.cluster[0].id
    security_group_id    = aws_security_group.cluster[0].id
    efa                  = var.efa
  }

  # The key must be there before a node asks for it.
  depends_on = [aws_secretsmanager_secret_version.munge_key]
}
