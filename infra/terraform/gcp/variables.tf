variable "name" {
  type        = string
  description = "Name of this benchmark instance (lowercase); names the instance, its service account and firewall rule."
  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,40}[a-z0-9]$", var.name))
    error_message = "name must be 2-42 characters: lowercase letters, digits and '-', starting with a letter."
  }
}

variable "project" {
  type        = string
  description = "GCP project ID the instance and its service account live in."
}

variable "zone" {
  type        = string
  description = "Zone to launch in, e.g. us-central1-a (T2A and GPU types exist in some zones only)."
}

variable "machine_type" {
  type        = string
  description = "Machine type, e.g. n2-standard-4 (x86), t2a-standard-4 (Ampere Altra, arm64), g2-standard-4 (NVIDIA L4)."
}

variable "accelerator_type" {
  type        = string
  default     = null
  description = "GPU to attach to an N1 machine type, e.g. nvidia-tesla-t4; null: none (A2/A3/G2 types come with their GPUs)."
}

variable "accelerator_count" {
  type        = number
  default     = 1
  description = "How many accelerator_type GPUs to attach."
  validation {
    condition     = contains([1, 2, 4, 8], var.accelerator_count)
    error_message = "accelerator_count must be 1, 2, 4 or 8."
  }
}

variable "network" {
  type        = string
  default     = "default"
  description = "VPC network the firewall rule is created in."
}

variable "subnetwork" {
  type        = string
  default     = null
  description = "Subnetwork to launch in; null: the network's subnet in the zone's region (auto-mode networks)."
}

variable "assign_public_ip" {
  type        = bool
  default     = true
  description = "Give the instance an ephemeral external IP (needed for egress without Cloud NAT)."
}

variable "image" {
  type        = string
  default     = null
  description = "Boot image; null: Ubuntu 22.04 LTS for the machine type's architecture. A Deep Learning VM image saves the driver install on GPU types."
}

variable "boot_disk_gb" {
  type        = number
  default     = 40
  description = "Boot disk size in GB (always encrypted: Google-managed key, or boot_disk_kms_key)."
  validation {
    condition     = var.boot_disk_gb >= 16 && var.boot_disk_gb <= 2000
    error_message = "boot_disk_gb must be from 16 to 2000."
  }
}

variable "boot_disk_kms_key" {
  type        = string
  default     = null
  description = "Cloud KMS key self link for the boot disk (customer-managed encryption); null: Google-managed."
}

variable "ssh_cidr" {
  type        = string
  default     = null
  description = "CIDR allowed to reach port 22; null (the default) creates no ingress rule. /0 is refused."
  validation {
    condition     = var.ssh_cidr == null || (can(cidrhost(coalesce(var.ssh_cidr, "x"), 0)) && !endswith(coalesce(var.ssh_cidr, "x"), "/0"))
    error_message = "ssh_cidr must be a CIDR block narrower than /0 (e.g. 203.0.113.7/32), or null for no SSH."
  }
}

variable "image_reference" {
  type        = string
  description = "The perfzero image to run: a registry address, or the name:tag held by image_archive_object; '{arch}' becomes amd64 or arm64."
}

variable "image_archive_object" {
  type        = string
  default     = null
  description = "GCS object of a `docker save` archive to `docker load` instead of pulling; '{arch}' becomes amd64 or arm64. null: pull image_reference."
}

variable "image_archive_bucket" {
  type        = string
  default     = null
  description = "GCS bucket holding image_archive_object; null: results_bucket. The instance may read that one object only."
}

variable "suite_path" {
  type        = string
  description = "Path of the YAML suite to run; its text is shipped in the instance metadata."
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
  description = "The --system_name label and results path component; null: the machine type."
}

variable "results_bucket" {
  type        = string
  description = "GCS bucket for the results, with uniform bucket-level access (IAM conditions need it); the instance may only create objects under its own prefix."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix of all results in the bucket."
}

variable "capacity" {
  type        = string
  default     = "on_demand"
  description = "on_demand, or spot: a Spot VM (provisioning_model SPOT) deleted when Google takes it back. On spot the runner uploads the run as it goes and watches the preempted metadata key; applying again with the same execution_id launches a replacement that continues the run with --resume (infra/terraform/cloud-init/README.md)."
  validation {
    condition     = contains(["on_demand", "spot"], var.capacity)
    error_message = "capacity must be on_demand or spot."
  }
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot after which the instance powers off (stopped instances bill only their disk) even if the run hangs."
}

variable "labels" {
  type        = map(string)
  default     = {}
  description = "Cost labels added to the instance and its disk (with perfzero-run, perfzero-execution and perfzero-system)."
}

variable "cluster" {
  type = object({
    size             = number
    index            = number
    first_host       = optional(number, 10)
    munge_key_secret = string
    package_objects  = optional(list(string), [])
    placement_policy = string
    network_tag      = string
  })
  default     = null
  description = "Makes the instance node `index` of a Slurm cluster of `size` (examples/cluster): its internal address is cidrhost(<subnetwork's range>, first_host + index) (subnetwork is then required); it reads the munge key from the Secret Manager secret munge_key_secret (projects/P/secrets/NAME) and installs perfzero from package_objects (.debs in image_archive_bucket, perfzero first, '{arch}' replaced); it launches under placement_policy (a compact placement resource policy's self link) and carries network_tag (the tag of the nodes' firewall rule, open among them). null: a single instance that runs the container."
}
