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
}

locals {
  tags = merge(var.tags, {
    "perfzero-run"       = var.name
    "perfzero-execution" = var.execution_id
    "perfzero-system"    = module.cloud_init.system_name
  })
  ami_arch = module.cloud_init.architecture == "arm64" ? "arm64" : "x86_64"
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
  ami                                  = var.ami_id != null ? var.ami_id : data.aws_ami.ubuntu[0].id
  instance_type                        = var.instance_type
  subnet_id                            = var.subnet_id
  associate_public_ip_address          = var.associate_public_ip
  vpc_security_group_ids               = [aws_security_group.this.id]
  iam_instance_profile                 = aws_iam_instance_profile.this.name
  key_name                             = var.key_name
  user_data                            = module.cloud_init.user_data
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

  tags = merge(local.tags, { Name = var.name })
}
