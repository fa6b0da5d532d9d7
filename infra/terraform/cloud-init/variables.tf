variable "cloud" {
  type        = string
  description = "The cloud the instance runs on: aws, gcp, oci or azure. Picks the object-storage uploader and the platform label."
  validation {
    condition     = contains(["aws", "gcp", "oci", "azure"], var.cloud)
    error_message = "cloud must be one of aws, gcp, oci, azure."
  }
}

variable "shape" {
  type        = string
  description = "Instance type (AWS), machine type (GCP), shape (OCI) or VM size (Azure), e.g. c7g.xlarge, t2a-standard-4, VM.Standard.A1.Flex, Standard_D4ps_v5."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$", var.shape))
    error_message = "shape must be 1-63 characters of letters, digits, '.', '_' or '-'."
  }
}

variable "system_name" {
  type        = string
  default     = null
  description = "The --system_name label and the results path component; defaults to the shape, with -<ocpus>ocpu[-<memory_gb>gb] for flexible (*.Flex) shapes."
  validation {
    condition     = var.system_name == null || can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$", coalesce(var.system_name, "x")))
    error_message = "system_name must be letters, digits, '.', '_' or '-' (it becomes a path component and a shell word)."
  }
}

variable "ocpus" {
  type        = number
  default     = null
  description = "OCPUs of an OCI flexible shape; with memory_gb it names the size in the default system_name (VM.Standard.A1.Flex-4ocpu-24gb)."
}

variable "memory_gb" {
  type        = number
  default     = null
  description = "Memory in GB of an OCI flexible shape (see ocpus)."
}

variable "architecture" {
  type        = string
  default     = null
  description = "amd64 or arm64; null derives it from the shape (AWS Graviton types, GCP T2A/C4A, OCI A1/A2/A4)."
  validation {
    condition     = var.architecture == null || contains(["amd64", "arm64"], coalesce(var.architecture, "amd64"))
    error_message = "architecture must be amd64, arm64 or null."
  }
}

variable "gpu" {
  type        = bool
  default     = null
  description = "Whether the shape has NVIDIA GPUs (installs the driver and container toolkit, runs with --gpus all); null derives it from the shape."
}

variable "image_reference" {
  type        = string
  description = "The image to run: a registry address that is pulled, or, with image_archive_object, the name:tag that archive holds. '{arch}' is replaced by amd64 or arm64."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._/:@{}-]{0,254}$", var.image_reference))
    error_message = "image_reference must look like registry/name:tag (letters, digits and . _ / : @ - only)."
  }
}

variable "image_archive_object" {
  type        = string
  default     = null
  description = "Object name of a `docker save` archive (.tar or .tar.gz) in image_archive_bucket, loaded with `docker load` instead of pulling; '{arch}' is replaced by amd64 or arm64. null: pull image_reference."
  validation {
    condition     = var.image_archive_object == null || can(regex("^[A-Za-z0-9][A-Za-z0-9._/{}-]{0,500}$", coalesce(var.image_archive_object, "x")))
    error_message = "image_archive_object must be an object name of letters, digits and . _ / - only."
  }
}

variable "image_archive_bucket" {
  type        = string
  default     = null
  description = "Bucket that holds image_archive_object; null: the results bucket."
}

variable "suite_yaml" {
  type        = string
  description = "The YAML suite to run (its text); shipped into the instance as /etc/perfzero/suite.yaml."
  validation {
    condition     = length(var.suite_yaml) > 0 && length(var.suite_yaml) <= 16384
    error_message = "suite_yaml must be 1 to 16384 bytes (user data is limited to 16 KiB on AWS)."
  }
}

variable "execution_id" {
  type        = string
  description = "The --execution_id of the run, and the last component of its results path (e.g. 2026-11-22a)."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", var.execution_id))
    error_message = "execution_id must be 1-64 characters of letters, digits, '.', '_' or '-'."
  }
}

variable "execution_label" {
  type        = string
  default     = "fleet"
  description = "The --execution_label passed to perfzero."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$", var.execution_label))
    error_message = "execution_label must be 1-64 characters of letters, digits, '.', '_', ':' or '-'."
  }
}

variable "results_bucket" {
  type        = string
  description = "Object-storage bucket the results are uploaded to (on Azure: the blob container, in azure_storage_account)."
  validation {
    condition     = can(regex("^[a-z0-9][A-Za-z0-9._-]{1,254}$", var.results_bucket))
    error_message = "results_bucket must be a bucket name (letters, digits, '.', '_', '-')."
  }
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix under which results land: <prefix>/<platform>/<system_name>/<execution_id>/."
  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$", var.results_prefix))
    error_message = "results_prefix must be path components of letters, digits, '.', '_', '-' joined by '/' (no leading or trailing '/')."
  }
}

variable "azure_storage_account" {
  type        = string
  default     = null
  description = "Azure storage account holding the results container and the image archive (needed when cloud is azure)."
  validation {
    condition     = var.azure_storage_account == null || can(regex("^[a-z0-9]{3,24}$", coalesce(var.azure_storage_account, "abc")))
    error_message = "azure_storage_account must be 3-24 lowercase letters and digits."
  }
}

variable "oci_namespace" {
  type        = string
  default     = null
  description = "OCI Object Storage namespace of the buckets (needed when cloud is oci)."
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot: the instance powers off after this many minutes even if the run hangs; the container gets what is left minus 10 minutes for the upload."
  validation {
    condition     = var.time_limit_minutes >= 20 && var.time_limit_minutes <= 2880 && floor(var.time_limit_minutes) == var.time_limit_minutes
    error_message = "time_limit_minutes must be a whole number from 20 to 2880."
  }
}

variable "capacity" {
  type        = string
  default     = "on_demand"
  description = "on_demand or spot: recorded in the instance's timeline (instances/<boot id>.json beside the run) so that `perfzero report` bills the experiment at the right price."
  validation {
    condition     = contains(["on_demand", "spot"], var.capacity)
    error_message = "capacity must be on_demand or spot."
  }
}

variable "cluster" {
  type = object({
    size             = number
    index            = optional(number)
    subnet_cidr      = optional(string)
    first_host       = optional(number, 10)
    name_prefix      = optional(string, "pz-node")
    munge_key_secret = string
    package_objects  = optional(list(string), [])
    discover         = optional(bool, false)
  })
  default     = null
  description = "Makes the instance one node of a Slurm cluster of `size` nodes (examples/cluster). Node i is <name_prefix><i> at cidrhost(subnet_cidr, first_host + i) (the cloud module gives the instance that address), node 0 is the head and runs the suite; index is this node's i. With discover = true (and no index or subnet_cidr) every node has the same user data, as the instances of an OCI cluster network do: each reads the hosts (\"name=address ...\", the head first) from the object output cluster_hosts_object, which the caller writes once the nodes exist, and finds itself by its address. munge_key_secret is the key's id in the cloud's secret store (a Secrets Manager ARN, projects/P/secrets/NAME, a Vault secret OCID or a Key Vault secret URL); package_objects the perfzero .debs in image_archive_bucket, perfzero first, then the workers the suite needs, such as perfzero-mpi ('{arch}' replaced; empty: the OS image has perfzero). null: one instance runs the container."
  validation {
    condition = var.cluster == null || try(
      var.cluster.size >= 2 && var.cluster.size <= 64 && floor(var.cluster.size) == var.cluster.size &&
      (var.cluster.discover ? var.cluster.index == null && var.cluster.subnet_cidr == null : (
        var.cluster.index >= 0 && var.cluster.index < var.cluster.size && floor(var.cluster.index) == var.cluster.index &&
      can(cidrhost(var.cluster.subnet_cidr, var.cluster.first_host + var.cluster.size)) && var.cluster.first_host >= 4)) &&
      can(regex("^[a-z][a-z0-9-]{0,40}$", var.cluster.name_prefix)) &&
      can(regex("^[A-Za-z0-9][A-Za-z0-9:/._+=@-]{0,999}$", var.cluster.munge_key_secret)),
    false)
    error_message = "cluster needs a size of 2 to 64 nodes; an index below it and an IPv4 subnet_cidr with room for first_host (4 or more: clouds keep the first addresses) + size addresses, or discover = true and neither; a name_prefix of lowercase letters, digits and '-'; and a munge_key_secret id."
  }
}
