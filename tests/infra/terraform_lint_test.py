"""Runs terraform_lint.py on infra/terraform (it must find nothing) and on a module that breaks
every rule (tests/fixtures/terraform_lint/bad_module: it must name each problem), so the lint is
known to be able to fail."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", ".."))
LINT = [sys.executable, os.path.join(HERE, "terraform_lint.py")]
EXPECTED = [
    "module has no README.md",
    "module has no versions.tf",
    "variable 'untyped' has no type",
    "variable 'ssh_cidr' has no description",
    "variable 'ssh_cidr' must default to null",
    "aws_security_group_rule.ssh opens 0.0.0.0/0 or ::/0 to ingress",
    "aws_instance.this does not require IMDSv2",
    "aws_instance.this root volume is not encrypted",
    "aws_instance.this has no tags",
    "IAM action s3:*",
    "IAM resource arn:aws:s3:::bucket/*",
    "google_project_iam_member.storage_admin: no project- or account-wide grants",
    "OCI statement grants more than creating (on spot: reading and overwriting) objects",
    "reading and overwriting) objects under the prefix: Allow dynamic-group g to manage objects in compartment id c "
    "where all {target.bucket.name = 'b', any {request.permission = 'OBJECT_OVERWRITE', request.permission = 'OBJECT_DELETE'}",
    "google_storage_bucket_iam_member.read_back must name a role and carry a condition",
    "spot capacity without passing capacity to the cloud-init module",
    "spot capacity without the identity's read of its own results prefix",
    "s3:ListBucket without a Condition limiting s3:prefix to the results path",
    "azurerm_network_security_rule.ssh opens inbound traffic from anywhere",
    "azurerm_role_assignment.everything grants Storage Blob Data Contributor without a condition",
    "azurerm_role_assignment.everything is not scoped to one container",
    "placement group without a precondition on local.placement_supported",
    "compact placement without a precondition on local.compact_placement_supported",
    "EFA interface without a precondition on local.efa_supported",
    "OCI cluster network without a precondition on local.cluster_network_supported",
    "google_secret_manager_secret_iam_member.every_secret: only secretAccessor",
    "secretsmanager:GetSecretValue on \"*\": only the cluster's munge key secret",
]


def main():
    failures = 0
    good = subprocess.run(LINT + [os.path.join(SOURCE_DIR, "infra", "terraform")], capture_output=True, text=True)
    print(good.stdout, end="")
    if good.returncode != 0:
        print("FAILED: infra/terraform has lint problems")
        failures += 1
    bad = subprocess.run(LINT + [os.path.join(SOURCE_DIR, "tests", "fixtures", "terraform_lint", "bad_module")],
                         capture_output=True, text=True)
    if bad.returncode != 1:
        print(f"FAILED: the bad module passed the lint (exit {bad.returncode})")
        failures += 1
    for message in EXPECTED:
        found = message in bad.stdout
        print(("ok: " if found else "FAILED: ") + f"bad module: {message}")
        failures += not found
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
