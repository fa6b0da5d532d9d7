output "results_url" {
  description = "Where the run lands: s3://<bucket>/<prefix>/aws/<type>-x<nodes>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.node[0].results_url
}

output "instance_ids" {
  description = "The nodes' instance IDs, the head first (each terminates when the run ends or the time limit passes)."
  value       = [for n in module.node : n.instance_id]
}

output "placement_group" {
  description = "The cluster placement group the nodes share."
  value       = aws_placement_group.cluster.name
}
