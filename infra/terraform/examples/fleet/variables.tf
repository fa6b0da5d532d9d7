variable "execution_id" {
  type        = string
  description = "Names this fleet run: every instance passes it as --execution_id and its results land under <prefix>/<cloud>/<system>/<execution_id>/. Use a new one per fleet run, e.g. 2026-11-22a, and the same one again to continue a run on spot capacity that was taken back (README.md)."
  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,19}$", var.execution_id))
    error_message = "execution_id must be 1-20 characters: lowercase letters, digits and '-' (it becomes part of instance, role and service-account names on all three clouds)."
  }
}

variable "shapes" {
  type = list(object({
    cloud  = string
    shape  = string
    ocpus  = optional(number)
    memory = optional(number)
  }))
  description = "The instance types to compare: one benchmark instance each (cloud: aws, gcp, oci or azure). ocpus and memory (GB) are for OCI Flex shapes."
  default = [
    { cloud = "aws", shape = "c7i.xlarge" },                                  # Intel, 4 vCPUs
    { cloud = "aws", shape = "c7g.xlarge" },                                  # Graviton3, 4 vCPUs, arm64
    { cloud = "aws", shape = "g5.xlarge" },                                   # NVIDIA A10G
    { cloud = "gcp", shape = "n2-standard-4" },                               # Intel, 4 vCPUs
    { cloud = "gcp", shape = "t2a-standard-4" },                              # Ampere Altra, 4 vCPUs, arm64
    { cloud = "gcp", shape = "g2-standard-4" },                               # NVIDIA L4
    { cloud = "oci", shape = "VM.Standard.E5.Flex", ocpus = 2, memory = 16 }, # AMD, 2 OCPUs = 4 vCPUs
    { cloud = "oci", shape = "VM.Standard.A1.Flex", ocpus = 4, memory = 24 }, # Ampere, 4 OCPUs = 4 vCPUs, arm64
    { cloud = "oci", shape = "VM.GPU.A10.1" },                                # NVIDIA A10
  ]
  validation {
    condition     = alltrue([for s in var.shapes : contains(["aws", "gcp", "oci", "azure"], s.cloud)])
    error_message = "every shape's cloud must be aws, gcp, oci or azure."
  }
}

variable "suite_path" {
  type        = string
  default     = null
  description = "YAML suite every instance runs; null: benchmarks/suites/cpu_standard.yaml of this repository."
}

variable "image_reference" {
  type        = string
  default     = "perfzero-cpp:0.1.0-{arch}"
  description = "Image to run: a registry address, or the name:tag inside the archives; '{arch}' becomes amd64 or arm64."
}

variable "image_archive_object" {
  type        = string
  default     = "images/perfzero-cpp-0.1.0-{arch}.tar.gz"
  description = "Object name of the `docker save` archives in each cloud's results bucket (uploaded beforehand, see README); null: pull image_reference from a registry."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix of all results in every bucket."
}

variable "time_limit_minutes" {
  type        = number
  default     = 90
  description = "Hard limit per instance from boot; it powers off (AWS: terminates) afterwards whatever happens."
}

variable "ssh_cidr" {
  type        = string
  default     = null
  description = "CIDR that may SSH to the instances (debugging only); null: no ingress anywhere. /0 is refused."
  validation {
    condition     = var.ssh_cidr == null || (can(cidrhost(coalesce(var.ssh_cidr, "x"), 0)) && !endswith(coalesce(var.ssh_cidr, "x"), "/0"))
    error_message = "ssh_cidr must be a CIDR block narrower than /0 (e.g. 203.0.113.7/32), or null for no SSH."
  }
}

variable "cost_tags" {
  type        = map(string)
  default     = { project = "perfzero", purpose = "benchmark" }
  description = "Cost-allocation tags and labels put on every resource in all three clouds (lowercase for GCP)."
}

variable "aws" {
  type = object({
    region    = string
    subnet_id = string
    bucket    = string
    capacity  = optional(string, "on_demand")
  })
  default     = null
  description = "AWS settings: region, a subnet with egress, the S3 results bucket, and capacity (on_demand or spot: a preempted instance's run is continued by applying again with the same execution_id; README.md). null: the fleet's AWS shapes are skipped."
}

variable "gcp" {
  type = object({
    project  = string
    zone     = string
    network  = optional(string, "default")
    bucket   = string
    capacity = optional(string, "on_demand")
  })
  default     = null
  description = "GCP settings: project, zone (with T2A and G2 capacity), network, the GCS results bucket (uniform access), and capacity (on_demand or spot: Spot VMs; a preempted instance's run is continued by applying again with the same execution_id). null: GCP shapes are skipped."
}

variable "oci" {
  type = object({
    region              = string
    tenancy_ocid        = string
    compartment_ocid    = string
    availability_domain = string
    vcn_ocid            = string
    subnet_ocid         = string
    namespace           = string
    bucket              = string
    capacity            = optional(string, "on_demand")
  })
  default     = null
  description = "OCI settings: region, tenancy and compartment, availability domain, VCN and subnet with egress, Object Storage namespace and results bucket, and capacity (on_demand or spot: preemptible instances; a preempted instance's run is continued by applying again with the same execution_id). null: OCI shapes are skipped."
}

variable "azure" {
  type = object({
    subscription_id      = string
    resource_group_name  = string
    location             = string
    subnet_id            = string
    storage_account_name = string
    storage_account_id   = string
    container            = string
    admin_ssh_public_key = string
    capacity             = optional(string, "on_demand")
  })
  default     = null
  description = "Azure settings: subscription, resource group and region, a subnet with egress, the storage account and blob container for results, the admin user's public key (Azure requires one; no inbound rule exists without ssh_cidr), and capacity (on_demand or spot). null: Azure shapes are skipped."
}
