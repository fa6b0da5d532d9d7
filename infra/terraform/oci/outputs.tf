output "instance_id" {
  description = "OCI instance OCID (it powers itself off when the run ends or the time limit passes)."
  value       = oci_core_instance.this.id
}

output "results_url" {
  description = "Where this instance's results land: oci://<bucket>@<namespace>/<prefix>/oci/<system_name>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.cloud_init.results_url
}

output "architecture" {
  description = "amd64 or arm64, derived from the shape."
  value       = module.cloud_init.architecture
}

output "gpu" {
  description = "Whether the instance runs the container with --gpus all."
  value       = module.cloud_init.gpu
}

output "system_name" {
  description = "The --system_name label: the shape, with OCPUs and memory for Flex shapes."
  value       = module.cloud_init.system_name
}

output "policy_statements" {
  description = "The IAM policy statements of the instance's dynamic group (write under its results prefix only)."
  value       = local.policy_statements
}
