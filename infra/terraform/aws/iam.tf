# The instance's identity: it may put objects under its own results prefix and read the one image
# archive it loads; nothing else (no listing, no deleting, no other prefix). On spot capacity it may
# also read objects under its own prefix (a replacement reads the run so far back by name, from the
# uploaded-files list, to resume it) and list that prefix: without s3:ListBucket S3 answers 403,
# not 404, for an object that is not there, and "not there yet" is what a first instance must tell.
data "aws_partition" "current" {}

locals {
  s3_arn = "arn:${data.aws_partition.current.partition}:s3:::"
  policy_statements = concat(
    [{
      Sid      = "WriteOwnResultsOnly"
      Effect   = "Allow"
      Action   = ["s3:PutObject"]
      Resource = ["${local.s3_arn}${var.results_bucket}/${module.cloud_init.results_path}/*"]
    }],
    var.capacity != "spot" ? [] : [{
      Sid      = "ReadOwnResultsToResume"
      Effect   = "Allow"
      Action   = ["s3:GetObject"]
      Resource = ["${local.s3_arn}${var.results_bucket}/${module.cloud_init.results_path}/*"]
      }, {
      Sid       = "ListOwnResultsToTellMissingFromRefused"
      Effect    = "Allow"
      Action    = ["s3:ListBucket"]
      Resource  = ["${local.s3_arn}${var.results_bucket}"]
      Condition = { StringLike = { "s3:prefix" = ["${module.cloud_init.results_path}/*"] } }
    }],
    var.cluster == null ? [] : [{
      Sid      = "ReadClusterMungeKey"
      Effect   = "Allow"
      Action   = ["secretsmanager:GetSecretValue"]
      Resource = [var.cluster.munge_key_secret_arn]
    }],
    length(module.cloud_init.package_objects) == 0 ? [] : [{
      Sid      = "ReadPerfzeroPackages"
      Effect   = "Allow"
      Action   = ["s3:GetObject"]
      Resource = [for package_object in module.cloud_init.package_objects : "${local.s3_arn}${module.cloud_init.image_archive_bucket}/${package_object}"]
    }],
    module.cloud_init.image_archive_object == "" ? [] : [{
      Sid      = "ReadImageArchive"
      Effect   = "Allow"
      Action   = ["s3:GetObject"]
      Resource = ["${local.s3_arn}${module.cloud_init.image_archive_bucket}/${module.cloud_init.image_archive_object}"]
    }],
  )
}

resource "aws_iam_role" "this" {
  name_prefix = "${var.name}-"
  description = "perfzero benchmark instance ${var.name}: writes its results only"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { Service = "ec2.amazonaws.com" }
    }]
  })
  tags = local.tags
}

resource "aws_iam_role_policy" "results" {
  name   = "perfzero-results"
  role   = aws_iam_role.this.id
  policy = jsonencode({ Version = "2012-10-17", Statement = local.policy_statements })
}

resource "aws_iam_instance_profile" "this" {
  name_prefix = "${var.name}-"
  role        = aws_iam_role.this.name
  tags        = local.tags
}
