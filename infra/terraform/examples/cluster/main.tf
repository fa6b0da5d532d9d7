# A Slurm cluster of `nodes` instances of one type placed close together: on AWS in one cluster
# placement group, each with an Elastic Fabric Adapter where the type has one (aws.tf is this file's
# AWS half); on GCP under one compact placement policy (gcp.tf). cloud-init makes each instance a
# node with the scripts the tests' cluster runs (infra/terraform/cloud-init: slurm-node.sh); the
# munge key they share is a secret in the cloud's store that only the nodes may read, never in user
# data. The head (node 0) runs the multi-host suite through srun, uploads the run, and every node
# powers off.
locals {
  suite_path    = coalesce(var.suite_path, "${path.root}/../../../../benchmarks/suites/cluster_interconnect.yaml")
  name          = "pz-${var.execution_id}"
  instance_type = coalesce(var.instance_type, var.cloud == "aws" ? "c6in.8xlarge" : "c2d-standard-16")
  aws_nodes     = var.cloud == "aws" ? var.nodes : 0
  gcp_nodes     = var.cloud == "gcp" ? var.nodes : 0
}

# The munge key: random, kept in the cloud's secret store (and in this configuration's state, which
# is therefore sensitive); each node may read this one secret.
resource "random_password" "munge_key" {
  length  = 64
  special = false
}
