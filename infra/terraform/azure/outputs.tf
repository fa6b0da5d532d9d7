output "vm_id" {
  description = "The VM's resource id."
  value       = azurerm_linux_virtual_machine.this.id
}

output "results_url" {
  description = "Where the results land: <container URL>/<prefix>/azure/<system_name>/<execution_id>/."
  value       = module.cloud_init.results_url
}

output "results_path" {
  description = "Blob name prefix of this VM's results (no trailing '/')."
  value       = module.cloud_init.results_path
}

output "system_name" {
  description = "The --system_name label."
  value       = module.cloud_init.system_name
}

output "architecture" {
  description = "amd64 or arm64."
  value       = module.cloud_init.architecture
}

output "identity_principal_id" {
  description = "The managed identity's principal id (for a customer-managed key's access policy, say)."
  value       = azurerm_user_assigned_identity.this.principal_id
}

output "gpu" {
  description = "Whether the VM is set up for NVIDIA GPUs."
  value       = module.cloud_init.gpu
}
