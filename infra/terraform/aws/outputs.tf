output "instance_id" {
  description = "EC2 instance ID (it terminates itself when the run ends or the time limit passes)."
  value       = aws_instance.this.id
}

output "results_url" {
  description = "Where this instance's results land: s3://<bucket>/<prefix>/aws/<system_name>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.cloud_init.results_url
}

output "architecture" {
  description = "amd64 or arm64, derived from the instance type."
  value       = module.cloud_init.architecture
}

output "gpu" {
  description = "Whether the instance runs the container with --gpus all."
  value       = module.cloud_init.gpu
}

output "role_arn" {
  description = "IAM role of the instance (write access to its results prefix only)."
  value       = aws_iam_role.this.arn
}
