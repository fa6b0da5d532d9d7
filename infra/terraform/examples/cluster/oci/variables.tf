variable "region" {
  type        = string
  description = "The OCI region, e.g. us-ashburn-1."
}

variable "tenancy_ocid" {
  type        = string
  description = "The tenancy, where the nodes' dynamic group is made (creating one needs tenancy administrator rights)."
}

variable "compartment_ocid" {
  type        = string
  description = "The compartment of the nodes, their network security group, the secret and the policy."
}

variable "availability_domain" {
  type        = string
  description = "The availability domain the cluster network is placed in (one with capacity of the shape)."
}

variable "vcn_ocid" {
  type        = string
  description = "The VCN of subnet_ocid; the nodes' network security group is made in it."
}

variable "subnet_ocid" {
  type        = string
  description = "A private subnet with egress (a NAT gateway for packages, a service gateway for Object Storage and the Vault)."
}

variable "object_storage_namespace" {
  type        = string
  description = "The tenancy's Object Storage namespace."
}

variable "results_bucket" {
  type        = string
  description = "The bucket the head uploads the run to; it also holds the perfzero packages and the cluster's hosts object."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix of the results in the bucket."
}

variable "vault_ocid" {
  type        = string
  description = "The Vault that keeps the cluster's munge key."
}

variable "vault_key_ocid" {
  type        = string
  description = "The Vault's master encryption key that encrypts the munge key secret."
}

variable "shape" {
  type        = string
  default     = "BM.Optimized3.36"
  description = "The nodes' bare-metal shape (all alike), one that a cluster network takes (local.cluster_network_supported in main.tf: BM.GPU4.8, BM.GPU.A100-v2.8, BM.GPU.H100.8, BM.HPC2.36, BM.Optimized3.36 ...)."
}

variable "nodes" {
  type        = number
  default     = 2
  description = "How many nodes: the first by address (the head) runs slurmctld and the suite, every node runs slurmd."
  validation {
    condition     = var.nodes >= 2 && var.nodes <= 64 && floor(var.nodes) == var.nodes
    error_message = "nodes must be a whole number from 2 to 64."
  }
}

variable "image_ocid" {
  type        = string
  default     = null
  description = "The nodes' image; null: the newest Canonical Ubuntu 22.04 image for the shape (an HPC or GPU image with RDMA drivers is the user's choice)."
}

variable "boot_volume_gb" {
  type        = number
  default     = 100
  description = "Boot volume size in GB."
}

variable "execution_id" {
  type        = string
  description = "Names this run: --execution_id, and the last component of <prefix>/oci/<shape>-x<nodes>/<execution_id>/. A new one per apply, e.g. 2026-11-27a."
  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,19}$", var.execution_id))
    error_message = "execution_id must be 1-20 characters: lowercase letters, digits and '-'."
  }
}

variable "suite_path" {
  type        = string
  default     = null
  description = "The multi-host suite the head runs; null: benchmarks/suites/cluster_interconnect.yaml of this repository. Its launch: nodes must not exceed nodes."
}

variable "package_objects" {
  type        = list(string)
  default     = ["packages/perfzero_0.1.0_{arch}.deb", "packages/perfzero-mpi_0.1.0_{arch}.deb"]
  description = "The perfzero Debian packages in results_bucket that every node installs (docs/packages.md; uploaded beforehand, see README), perfzero first; '{arch}' becomes amd64 or arm64."
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot: every node powers off after this many minutes even if the run hangs."
}

variable "cost_tags" {
  type        = map(string)
  default     = {}
  description = "Freeform tags added to every resource (with perfzero-run and perfzero-execution)."
}
