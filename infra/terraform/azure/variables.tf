variable "name" {
  type        = string
  description = "Name of this benchmark instance; names the VM, its identity, network interface and security group."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9-]{0,62}$", var.name))
    error_message = "name must be 1-63 characters of letters, digits and '-'."
  }
}

variable "resource_group_name" {
  type        = string
  description = "Resource group the VM and its resources are created in."
}

variable "location" {
  type        = string
  description = "Azure region, e.g. eastus."
}

variable "vm_size" {
  type        = string
  description = "VM size, e.g. Standard_D4s_v5 (x86), Standard_D4ps_v5 (Arm), Standard_NC4as_T4_v3 (NVIDIA T4)."
}

variable "subnet_id" {
  type        = string
  description = "Subnet to launch in; it needs egress to the internet (packages, image) and to Blob Storage."
}

variable "storage_account_name" {
  type        = string
  description = "Storage account of the results container (and of the image archive, when one is used)."
}

variable "storage_account_id" {
  type        = string
  description = "Resource id of that storage account: the identity's role assignments are scoped to its containers."
}

variable "results_container" {
  type        = string
  description = "Blob container the results are uploaded to."
}

variable "image_reference" {
  type        = string
  description = "Container image to run; '{arch}' becomes amd64 or arm64."
}

variable "image_archive_object" {
  type        = string
  default     = null
  description = "A `docker save` archive blob to load instead of pulling image_reference ('{arch}' too)."
}

variable "image_archive_container" {
  type        = string
  default     = null
  description = "Container of image_archive_object; default: results_container."
}

variable "suite_path" {
  type        = string
  description = "Path of the YAML suite to run."
}

variable "execution_id" {
  type        = string
  description = "perfzero's --execution_id; the last component of the results path."
}

variable "execution_label" {
  type        = string
  default     = "fleet"
  description = "perfzero's --execution_label."
}

variable "system_name" {
  type        = string
  default     = null
  description = "--system_name and the results path component; default: the VM size."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Blob name prefix: results land under <prefix>/azure/<system_name>/<execution_id>/."
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot after which the VM deallocates itself even if the run hangs."
}

variable "capacity" {
  type        = string
  default     = "on_demand"
  description = "on_demand, or spot (priority Spot, evicted by deletion); on spot the runner uploads as it goes, watches Scheduled Events and a relaunch resumes the run."
  validation {
    condition     = contains(["on_demand", "spot"], var.capacity)
    error_message = "capacity must be on_demand or spot."
  }
}

variable "admin_ssh_public_key" {
  type        = string
  description = "Public key of the 'perfzero' admin user (Azure requires one; it is useless without ssh_cidr, since no inbound rule exists otherwise)."
}

variable "ssh_cidr" {
  type        = string
  default     = null
  description = "CIDR allowed to SSH in; null: no inbound rule at all. 0.0.0.0/0 is refused."
  validation {
    condition     = var.ssh_cidr == null || (can(cidrhost(coalesce(var.ssh_cidr, "10.0.0.0/8"), 0)) && !contains(["0.0.0.0/0", "::/0"], coalesce(var.ssh_cidr, "10.0.0.0/8")))
    error_message = "ssh_cidr must be a CIDR other than 0.0.0.0/0 and ::/0."
  }
}

variable "associate_public_ip" {
  type        = bool
  default     = true
  description = "Give the VM a public IP for egress (a subnet without a NAT gateway has no default outbound access on new virtual networks)."
}

variable "os_disk_gb" {
  type        = number
  default     = 64
  description = "OS disk size in GB (encrypted at rest by the platform, or with disk_encryption_set_id)."
}

variable "disk_encryption_set_id" {
  type        = string
  default     = null
  description = "A disk encryption set for customer-managed keys; null: platform-managed keys."
}

variable "tags" {
  type        = map(string)
  default     = {}
  description = "Cost-allocation tags added to every resource (with perfzero-run, perfzero-execution and perfzero-system)."
}
