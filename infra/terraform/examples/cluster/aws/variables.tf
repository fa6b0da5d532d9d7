variable "region" {
  type        = string
  description = "AWS region of the subnet and the results bucket, e.g. us-east-1."
}

variable "subnet_id" {
  type        = string
  description = "Subnet every node launches in (one availability zone, as a cluster placement group needs). The nodes get no public address (each has an interface of its own, with a fixed private address): the subnet needs a NAT gateway (packages) and a route to S3 and Secrets Manager (NAT, or VPC endpoints). Its addresses from first_host on must be free."
}

variable "efa" {
  type        = bool
  default     = null
  description = "Give each node an Elastic Fabric Adapter; null: where the instance type has one."
}

variable "key_name" {
  type        = string
  default     = null
  description = "The EC2 key pair for SSH (with ssh_cidr); null: none."
}

variable "instance_type" {
  type        = string
  default     = "c6in.8xlarge"
  description = "The nodes' instance type (all alike). Network-optimised types show the interconnect best; the largest sizes of c6in, c7gn, hpc7g, p5... get an Elastic Fabric Adapter."
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
  description = "Node i gets the subnet's address number first_host + i (AWS keeps the first four)."
}

variable "execution_id" {
  type        = string
  description = "Names this run: --execution_id, and the last component of <prefix>/aws/<type>-x<nodes>/<execution_id>/. A new one per apply, e.g. 2026-11-27a."
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
  description = "S3 bucket the head uploads the run to; it also holds the perfzero packages."
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
  description = "Cost-allocation tags on every resource."
}
