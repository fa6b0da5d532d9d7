# One EC2 instance that runs the perfzero container once, uploads its results to S3 and terminates.
module "cloud_init" {
  source = "../cloud-init"

  cloud                = "aws"
  shape                = var.instance_type
  gpu                  = var.gpu
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
    subnet_cidr      = data.aws_subnet.this.cidr_block
    first_host       = var.cluster.first_host
    munge_key_secret = var.cluster.munge_key_secret_arn
    package_objects  = var.cluster.package_objects
  }
}

locals {
  tags = merge(var.tags, {
    "perfzero-run"       = var.name
    "perfzero-execution" = var.execution_id
    "perfzero-system"    = module.cloud_init.system_name
  })
  ami_arch = module.cloud_init.architecture == "arm64" ? "arm64" : "x86_64"

  # Cluster placement groups take neither burstable (t2, t3, t3a, t4g) nor Mac instances (EC2 User
  # Guide, "Placement strategies", read 2026-11).
  placement_supported = !can(regex("^(t[0-9][a-z]*|mac[0-9a-z-]*)\\.", var.instance_type))
  # Types with an Elastic Fabric Adapter (EC2 User Guide, "Supported instance types" for EFA, read
  # 2026-11): the largest sizes of the network- and HPC-optimised families and the big GPU types.
  efa_supported = can(regex("^(c5n\\.(9xlarge|18xlarge|metal)|c6gn\\.16xlarge|c6in\\.(32xlarge|metal)|c7gn\\.(16xlarge|metal)|c6i\\.(32xlarge|metal)|c7i\\.(48xlarge|metal-48xl)|m6i\\.(32xlarge|metal)|m7i\\.(48xlarge|metal-48xl)|hpc6a\\.48xlarge|hpc6id\\.32xlarge|hpc7a\\.[0-9]+xlarge|hpc7g\\.[0-9]+xlarge|p3dn\\.24xlarge|p4de?\\.24xlarge|p5e?n?\\.48xlarge|g4dn\\.(8xlarge|12xlarge|16xlarge|metal)|g5\\.(8xlarge|12xlarge|16xlarge|24xlarge|48xlarge)|g6e?\\.(8xlarge|12xlarge|16xlarge|24xlarge|48xlarge)|trn1n?\\.32xlarge)$", var.instance_type))
  efa           = var.cluster == null ? false : coalesce(var.cluster.efa, local.efa_supported)
}

# A cluster node has a fixed address (every node's cloud-init names every other) on an interface of
# its own, of type efa where the instance type has one.
resource "aws_network_interface" "cluster" {
  count           = var.cluster == null ? 0 : 1
  subnet_id       = var.subnet_id
  private_ips     = [module.cloud_init.cluster_address]
  security_groups = [aws_security_group.this.id, var.cluster.security_group_id]
  interface_type  = local.efa ? "efa" : null
  description     = "perfzero cluster node ${var.name}"
  tags            = local.tags

  lifecycle {
    precondition {
      condition     = !local.efa || local.efa_supported
      error_message = "efa is set but ${var.instance_type} has no Elastic Fabric Adapter (efa_supported in infra/terraform/aws/main.tf)."
    }
  }
}

data "aws_subnet" "this" {
  id = var.subnet_id
}

data "aws_ami" "ubuntu" {
  count       = var.ami_id == null ? 1 : 0
  most_recent = true
  owners      = ["099720109477"] # Canonical
  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-*-server-*"]
  }
  filter {
    name   = "architecture"
    values = [local.ami_arch]
  }
}

# No ingress unless ssh_cidr is given; egress for packages, the registry and S3.
resource "aws_security_group" "this" {
  name_prefix = "${var.name}-"
  description = "perfzero benchmark instance ${var.name}"
  vpc_id      = data.aws_subnet.this.vpc_id
  tags        = local.tags
}

resource "aws_vpc_security_group_egress_rule" "all" {
  security_group_id = aws_security_group.this.id
  description       = "packages, image registry, object storage"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
  tags              = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  count             = var.ssh_cidr == null ? 0 : 1
  security_group_id = aws_security_group.this.id
  description       = "SSH from the operator's network only"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = var.ssh_cidr
  tags              = local.tags
}

resource "aws_instance" "this" {
  ami           = var.ami_id != null ? var.ami_id : data.aws_ami.ubuntu[0].id
  instance_type = var.instance_type
  # A cluster node's network is its own interface (network_interface below).
  subnet_id                   = var.cluster == null ? var.subnet_id : null
  associate_public_ip_address = var.cluster == null ? var.associate_public_ip : null
  vpc_security_group_ids      = var.cluster == null ? [aws_security_group.this.id] : null
  placement_group             = var.cluster == null ? null : var.cluster.placement_group
  iam_instance_profile        = aws_iam_instance_profile.this.name
  key_name                    = var.key_name
  # Compressed: EC2 takes 16 KiB of user data, the runner and its scripts are more (cloud-init
  # unpacks gzip).
  user_data_base64                     = base64gzip(module.cloud_init.user_data)
  user_data_replace_on_change          = true
  instance_initiated_shutdown_behavior = "terminate" # a finished or timed-out run stops billing

  # Spot: taken back with a two-minute notice, which the runner watches; a relaunch with the same
  # execution_id resumes the run from what was uploaded (iam.tf grants the read it needs).
  dynamic "instance_market_options" {
    for_each = var.capacity == "spot" ? [1] : []
    content {
      market_type = "spot"
      spot_options {
        spot_instance_type             = "one-time"
        instance_interruption_behavior = "terminate"
      }
    }
  }

  dynamic "network_interface" {
    for_each = aws_network_interface.cluster
    content {
      device_index         = 0
      network_interface_id = network_interface.value.id
    }
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required" # IMDSv2 only
    http_put_response_hop_limit = 1          # containers cannot reach the instance's credentials
    instance_metadata_tags      = "disabled"
  }

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.root_volume_gb
    encrypted             = true
    kms_key_id            = var.kms_key_arn
    delete_on_termination = true
    tags                  = local.tags
  }

  # The role's grants first: a node reads its secret and packages within a minute of boot.
  depends_on = [aws_iam_role_policy.results]

  lifecycle {
    precondition {
      condition     = length(base64gzip(module.cloud_init.user_data)) <= 21844 # 16384 bytes, base64-encoded
      error_message = "The compressed user data is over EC2's 16 KiB: shorten suite_yaml."
    }
    precondition {
      condition     = var.cluster == null || local.placement_supported
      error_message = "${var.instance_type} cannot join a cluster placement group (burstable and Mac types cannot): pick another type."
    }
  }

  tags = merge(local.tags, { Name = var.name })
}
