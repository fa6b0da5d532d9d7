variable "name" {
  type        = string
  description = "Name of this benchmark instance; prefixes every resource it creates (IAM role, security group, instance)."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9-]{0,37}$", var.name))
    error_message = "name must be 1-38 characters of letters, digits and '-' (IAM role names allow 64 with the suffixes added)."
  }
}

variable "instance_type" {
  type        = string
  description = "EC2 instance type, e.g. c7i.xlarge (x86), c7g.xlarge (Graviton, arm64), g5.xlarge (NVIDIA A10G)."
}

variable "gpu" {
  type        = bool
  default     = null
  description = "Whether the instance type has NVIDIA GPUs; null derives it from the type (p*, g* families)."
}

variable "subnet_id" {
  type        = string
  description = "Subnet to launch in; it needs a route to the internet or NAT (packages, registry) and to S3."
}

variable "associate_public_ip" {
  type        = bool
  default     = true
  description = "Give the instance a public IPv4 address (needed for egress in a public subnet without NAT)."
}

variable "ami_id" {
  type        = string
  default     = null
  description = "AMI to boot; null picks Canonical's newest Ubuntu 22.04 for the instance's architecture. A Deep Learning AMI saves the driver install on GPU types."
}

variable "root_volume_gb" {
  type        = number
  default     = 40
  description = "Size of the encrypted gp3 root volume in GB (the image archive, the image and the results live there)."
  validation {
    condition     = var.root_volume_gb >= 16 && var.root_volume_gb <= 2000
    error_message = "root_volume_gb must be from 16 to 2000."
  }
}

variable "kms_key_arn" {
  type        = string
  default     = null
  description = "KMS key for the root volume; null: the account's default EBS key (the volume is encrypted either way)."
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

variable "key_name" {
  type        = string
  default     = null
  description = "EC2 key pair for SSH (only useful with ssh_cidr); null: none."
}

variable "image_reference" {
  type        = string
  description = "The perfzero image to run: a registry address, or the name:tag held by image_archive_object; '{arch}' becomes amd64 or arm64."
}

variable "image_archive_object" {
  type        = string
  default     = null
  description = "S3 key of a `docker save` archive to `docker load` instead of pulling; '{arch}' becomes amd64 or arm64. null: pull image_reference."
}

variable "image_archive_bucket" {
  type        = string
  default     = null
  description = "S3 bucket holding image_archive_object; null: results_bucket. The instance may read that one object only."
}

variable "suite_path" {
  type        = string
  description = "Path of the YAML suite to run; its text is shipped in the user data (16 KiB in all on EC2)."
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
  description = "The --system_name label and results path component; null: the instance type."
}

variable "results_bucket" {
  type        = string
  description = "S3 bucket for the results; the instance may only write under <results_prefix>/aws/<system_name>/<execution_id>/."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Key prefix of all results in the bucket."
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot after which the instance shuts down (and, being set to terminate on shutdown, is terminated) even if the run hangs."
}

variable "tags" {
  type        = map(string)
  default     = {}
  description = "Cost-allocation tags added to every resource (with perfzero-run, perfzero-execution and perfzero-system)."
}

variable "capacity" {
  type        = string
  default     = "on_demand"
  description = "on_demand, or spot: a one-time spot instance that terminates when AWS takes it back. On spot the runner uploads the run as it goes and watches spot/instance-action; launching the module again with the same execution_id continues the run with --resume (infra/terraform/cloud-init/README.md)."
  validation {
    condition     = contains(["on_demand", "spot"], var.capacity)
    error_message = "capacity must be on_demand or spot."
  }
}

variable "cluster" {
  type = object({
    size                 = number
    index                = number
    first_host           = optional(number, 10)
    munge_key_secret_arn = string
    package_objects      = optional(list(string), [])
    placement_group      = string
    security_group_id    = string
    efa                  = optional(bool)
  })
  default     = null
  description = "Makes the instance node `index` of a Slurm cluster of `size` (examples/cluster): its private address is cidrhost(<subnet's CIDR>, first_host + index); it reads the munge key from the Secrets Manager secret munge_key_secret_arn and installs perfzero from package_objects (.debs in image_archive_bucket, perfzero first, '{arch}' replaced); it launches in the cluster placement_group, with security_group_id (the nodes' group, open to itself) beside its own, and with an EFA interface when efa is true (null: when the type has one). null: a single instance that runs the container."
}
