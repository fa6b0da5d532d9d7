variable "project" {
  type        = string
  description = "The GCP project of the nodes, the secret and the firewall rule."
}

variable "zone" {
  type        = string
  description = "The zone every node launches in, e.g. us-central1-a."
}

variable "network" {
  type        = string
  default     = "default"
  description = "The VPC network; the nodes' firewall rule is created in it."
}

variable "subnetwork" {
  type        = string
  description = "The subnetwork, as projects/P/regions/R/subnetworks/NAME (or its https:// URL); its addresses from first_host on must be free. The nodes get no public address: Cloud NAT (packages) and Private Google Access (GCS, Secret Manager) serve them."
}

variable "instance_type" {
  type        = string
  default     = "c2d-standard-16"
  description = "The nodes' machine type (all alike), of a series that takes compact placement (c2, c2d, c3, c3d, c4, h3, n2, n2d, a2, a3, g2...)."
}

variable "nodes" {
  type        = number
  default     = 3
  description = "How many nodes: node 0 (the head) runs slurmctld and the suite, every node runs slurmd."
  validation {
    condition     = var.nodes >= 2 && var.nodes <= 64 && floor(var.nodes) == var.nodes
    error_message = "nodes must be a whole number from 2 to 64."
  }
}

variable "first_host" {
  type        = number
  default     = 10
  description = "Node i gets the subnet's address number first_host + i (GCP keeps the first two)."
}

variable "execution_id" {
  type        = string
  description = "Names this run: --execution_id, and the last component of <prefix>/gcp/<type>-x<nodes>/<execution_id>/. A new one per apply, e.g. 2026-11-27a."
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

variable "results_bucket" {
  type        = string
  description = "GCS bucket (uniform bucket-level access) the head uploads the run to; it also holds the perfzero packages."
}

variable "results_prefix" {
  type        = string
  default     = "perfzero"
  description = "Object prefix of the results in the bucket."
}

variable "package_objects" {
  type        = list(string)
  default     = ["packages/perfzero_0.1.0_{arch}.deb", "packages/perfzero-mpi_0.1.0_{arch}.deb"]
  description = "The perfzero Debian packages in results_bucket that every node installs (docs/packages.md; uploaded beforehand, see README), perfzero first; '{arch}' becomes amd64 or arm64."
}

variable "time_limit_minutes" {
  type        = number
  default     = 120
  description = "Hard limit from boot: every node terminates after this many minutes even if the run hangs."
}

variable "ssh_cidr" {
  type        = string
  default     = null
  description = "CIDR allowed to SSH to the nodes (e.g. your office's /32); null: no SSH ingress."
  validation {
    condition     = var.ssh_cidr == null || !endswith(coalesce(var.ssh_cidr, "x"), "/0")
    error_message = "ssh_cidr must not be a /0: name the network SSH comes from."
  }
}

variable "cost_tags" {
  type        = map(string)
  default     = { project = "perfzero" }
  description = "Cost labels on every resource (lowercase keys; values are lowercased and cleaned as GCP requires)."
}
