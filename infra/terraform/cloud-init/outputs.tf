output "user_data" {
  description = "The rendered #cloud-config document (plain text; the aws and oci modules gzip it)."
  value       = local.user_data
  # A preempted node takes the whole cluster's run with it, and a replacement would have to rejoin
  # under its predecessor's name and address. (A precondition, not a validation: a validation that
  # reads another variable needs Terraform 1.9.)
  precondition {
    condition     = !(var.capacity == "spot" && var.cluster != null)
    error_message = "A cluster runs on on_demand capacity only: losing one node to a preemption loses the run."
  }
}

output "architecture" {
  description = "amd64 or arm64: which image archive is loaded and which OS image the cloud module picks."
  value       = local.architecture
}

output "gpu" {
  description = "Whether the instance is set up for NVIDIA GPUs (driver, container toolkit, --gpus all)."
  value       = local.gpu
}

output "system_name" {
  description = "The --system_name label and results path component."
  value       = local.system_name
}

output "results_path" {
  description = "Object prefix of this instance's results (no trailing '/'): <prefix>/<platform>/<system_name>/<execution_id>."
  value       = local.results_path
}

output "results_url" {
  description = "Where the results land, as the cloud's CLI spells it (s3://, gs://, oci://bucket@namespace/)."
  value       = local.results_url
}

output "image_archive_object" {
  description = "The image archive object this instance loads (empty when it pulls image_reference)."
  value       = local.image_archive_object
}

output "image_archive_bucket" {
  description = "The bucket holding image_archive_object."
  value       = local.image_archive_bucket
}

output "docker_run_command" {
  description = "The container script the runner executes (for review; the same text is in user_data)."
  value       = local.run_container
}

output "cluster_address" {
  description = "A cluster node's private address, which the cloud module gives the instance (null outside a cluster)."
  value       = var.cluster == null || local.discover ? null : local.cluster_hosts[var.cluster.index].address
}

output "cluster_hosts" {
  description = "Every node of the cluster, the head first: name and private address (empty outside a cluster)."
  value       = local.cluster_hosts
}

output "package_objects" {
  description = "The perfzero .debs a cluster node installs, in image_archive_bucket (empty outside a cluster or when the OS image has perfzero)."
  value       = local.package_objects
}

output "cluster_hosts_object" {
  description = "Where a discovering cluster's nodes (cluster.discover) read their hosts, in the results bucket: \"name=address ...\", the head first, which the caller writes once the nodes exist (null otherwise)."
  value       = local.discover ? local.cluster_hosts_object : null
}
