output "instance_id" {
  description = "Compute Engine instance ID (it powers itself off when the run ends or the time limit passes)."
  value       = google_compute_instance.this.instance_id
}

output "results_url" {
  description = "Where this instance's results land: gs://<bucket>/<prefix>/gcp/<system_name>/<execution_id>/ (DONE or FAILED marks the end)."
  value       = module.cloud_init.results_url
}

output "architecture" {
  description = "amd64 or arm64, derived from the machine type."
  value       = module.cloud_init.architecture
}

output "gpu" {
  description = "Whether the instance runs the container with --gpus all."
  value       = module.cloud_init.gpu
}

output "service_account_email" {
  description = "The instance's service account (creates objects under its results prefix only)."
  value       = google_service_account.this.email
}
