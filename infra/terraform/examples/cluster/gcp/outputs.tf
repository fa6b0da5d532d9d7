output "results_url" {
  description = "Where the run lands: gs://<bucket>/<prefix>/gcp/<type>-x<nodes>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.node[0].results_url
}

output "instance_ids" {
  description = "The nodes' instance IDs, the head first (each powers off when the run ends or the time limit passes)."
  value       = [for n in module.node : n.instance_id]
}

output "placement_policy" {
  description = "The compact placement policy the nodes share."
  value       = google_compute_resource_policy.compact.self_link
}
