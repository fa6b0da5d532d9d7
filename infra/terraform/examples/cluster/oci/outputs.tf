output "results_url" {
  description = "Where the run lands: oci://<bucket>@<namespace>/<prefix>/oci/<shape>-x<nodes>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.cloud_init.results_url
}

output "hosts" {
  description = "The nodes as the hosts object names them, the head first: name=address."
  value       = local.hosts
}

output "cluster_network_id" {
  description = "The cluster network (its instance pool holds the nodes; terraform destroy terminates them)."
  value       = oci_core_cluster_network.this.id
}
