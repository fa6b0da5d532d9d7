variable "name" {
  type        = string
  description = "Name of this benchmark instance; names the instance, its dynamic group, policy and network security group."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9-]{0,62}$", var.name))
    error_message = "name must be 1-63 characters of letters, digits and '-'."
  }
}

variable "tenancy_ocid" {
  type        = string
  description = "Tenancy OCID: dynamic groups live in the tenancy (creating one needs tenancy administrator rights)."
}

variable "compartment_ocid" {
  type        = string
  description = "Compartment of the instance, its network security group and the results bucket's policy."
}

variable "availability_domain" {
  type        = string
  description = "Availability domain to launch in, e.g. 'Uocm:PHX-AD-1'."
}

variable "shape" {
  type        = string
  description = "Shape, e.g. VM.Standard.E5.Flex (AMD), VM.Standard.A1.Flex (Ampere, arm64), VM.GPU.A10.1 (NVIDIA A10)."
}

variable "ocpus" {
  type        = number
  default     = null
  description = "OCPUs of a flexible (*.Flex) shape: 1 OCPU is 2 vCPUs on x86 and 1 vCPU on Arm. Required for Flex shapes, ignored otherwise."
  validation {
    condition     = var.ocpus == null || (coalesce(var.ocpus, 1) >= 1 && coalesce(var.ocpus, 1) <= 128)
    error_message = "ocpus must be from 1 to 128."
  }
}

variable "memory_in_gbs" {
  type        = number
  default     = null
  description = "Memory of a flexible shape in GB; null: the shape's default for the OCPUs."
}

variable "subnet_ocid" {
  type        = string
  description = "Subnet to launch in; it needs a route to the internet or a NAT gateway (packages, registry) and to Object Storage."
}

variable "vcn_ocid" {
  type        = string
  description = "VCN of the subnet; the network security group is created in it."
}

variable "assign_public_ip" {
  type        = bool
  default     = true
  description = "Give the instance a public IP (needed for egress in a public subnet without NAT)."
}

variable "image_ocid" {
  type        = string
  default     = null
  description = "Image to boot; null: the newest Canonical Ubuntu 22.04 image for the shape (aarch64 on Arm shapes)."
}

variable "boot_volume_gb" {
  type        = number
  default     = 50
  description = "Boot volume size in GB (encrypted at rest by OCI; in transit too, and with kms_key_ocid if given)."
  validation {
    condition     = var.boot_volume_gb >= 50 && var.boot_volume_gb <= 2000
    error_message = "boot_volume_gb must be from 50 (OCI's minimum) to 2000."
  }
}

variable "kms_key_ocid" {
  type        = string
  default     = null
  description = "Vault key for the boot volume (customer-managed encryption); null: Oracle-managed."
}

variable "ssh_cidr" {
  type        = string
  default     = null
  description = "CIDR allowed to reach port 22; null (the default) opens no ingress at all. /0 is refused."
  validation {
    condition     = var.ssh_cidr == null || (can(cidrhost(coalesce(var.ssh_cidr, "x"), 0)) && !endswith(coalesce(var.ssh_cidr, "x"), "/0"))
    error_message = "ssh_cidr must be a CIDR block narrower than /0 (e.g. 203.0.113.7/32), or null for no SSH."
  }
}

variable "ssh_public_key" {
  type        = string
  default     = null
  description = "SSH public key for the ubuntu user (only useful with ssh_cidr); null: none."
}

variable "image_reference" {
  type        = string
  description = "The perfzero image to run: a registry address, or the name:tag held by image_archive_object; '{arch}' becomes amd64 or arm64."
}

variable "image_archive_object" {
  type        = string
  default     = null
  description = "Object of a `docker save` archive to `docker load` instead of pulling; '{arch}' becomes amd64 or arm64. null: pull image_reference."
}

variable "image_archive_bucket" {
  type        = string
  default     = null
  description = "Bucket holding image_archive_object (same namespace); null: results_bucket. The instance may read that one object only."
}

variable "suite_path" {
  type        = string
  description = "Path of the YAML suite to run; its text is shipped in the user data."
}

variable "execution_id" {
  type        = string
  description = "The --execution_id of the run and the last component of the results path."
}

variable "execution_label" {
  type        = string
  default     = "fleet"
  description = "The --execution_label passed to perfzero."
}

variable "system_name" {
  type        = string
  default     = null
  description = "The --system_name label and results path component; null: the shape, plus '-<ocpus>ocpu-<memory>gb' for Flex shapes."
}

variable "results_bucket" {
  type        = string
  description = "Object Storage bucket for the results (in compartment_ocid); the instance may only create objects under its own prefix."
}

variable "object_storage_namespace" {
  type        = string
  description = "Object Storage namespace of the tenancy (`oci os ns get`)."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix of all results in the bucket."
}

variable "capacity" {
  type        = string
  default     = "on_demand"
  description = "on_demand, or spot: a preemptible instance (preemptible_instance_config) terminated when OCI takes it back, which OCI does not announce on the instance. On spot the runner uploads the run as it goes (every PERFZERO_SYNC_SECONDS); applying again with the same execution_id launches a replacement that continues the run with --resume (infra/terraform/cloud-init/README.md)."
  validation {
    condition     = contains(["on_demand", "spot"], var.capacity)
    error_message = "capacity must be on_demand or spot."
  }
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot after which the instance powers off (stopped standard shapes bill only storage) even if the run hangs."
}

variable "freeform_tags" {
  type        = map(string)
  default     = {}
  description = "Cost-tracking tags added to every resource (with perfzero-run, perfzero-execution and perfzero-system)."
}
