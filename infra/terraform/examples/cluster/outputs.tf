output "results_url" {
  description = "Where the run lands: <bucket>/<prefix>/<cloud>/<type>-x<nodes>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = var.cloud == "aws" ? module.aws_node[0].results_url : module.gcp_node[0].results_url
}

output "instance_ids" {
  description = "The nodes' instance IDs, the head first (each powers off when the run ends or the time limit passes; on AWS it terminates)."
  value       = var.cloud == "aws" ? [for n in module.aws_node : n.instance_id] : [for n in module.gcp_node : n.instance_id]
}

output "placement" {
  description = "What keeps the nodes close: the AWS cluster placement group, or the GCP compact placement policy."
  value       = var.cloud == "aws" ? aws_placement_group.cluster[0].name : google_compute_resource_policy.compact[0].self_link
}
