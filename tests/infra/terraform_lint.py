"""Lint for infra/terraform: the project's rules that `terraform validate` would not check.
    python3 tests/infra/terraform_lint.py [TERRAFORM_ROOT]     (default: infra/terraform)
Rules: every variable has a type and a description; every module (a folder with .tf files) has a
README.md and a versions.tf pinning Terraform and every provider it uses; no ingress rule opens
0.0.0.0/0 or ::/0 (egress may), and an ssh_cidr defaults to null and refuses /0; IAM grants only
object writes under the results prefix and the read of one image archive object; AWS requires
IMDSv2 and encrypts the root volume; every taggable resource carries the cost tags; spot only with
the resume path wired; a cluster placement (AWS placement group or EFA, GCP compact placement, OCI
cluster network) only behind a precondition that the shape supports it; a secret read only of a
cluster's munge key.
Prints one line per problem (file: what) and exits 1 when there is any.
"""
import os
import re
import sys

problems = []

# Resources that cannot carry tags/labels (so need none).
UNTAGGABLE = {"aws_iam_role_policy", "google_compute_firewall", "google_service_account",
              "google_storage_bucket_iam_member", "oci_core_network_security_group_security_rule",
              "azurerm_network_security_rule", "azurerm_network_interface_security_group_association",
              "azurerm_role_assignment", "azurerm_role_definition", "aws_secretsmanager_secret_version",
              "google_secret_manager_secret_iam_member", "google_secret_manager_secret_version",
              "google_compute_resource_policy", "oci_objectstorage_object"}
TAG_ATTRIBUTE = {"aws": "tags", "google": "labels", "oci": "freeform_tags", "azurerm": "tags"}


def problem(path, what):
    problems.append(f"{path}: {what}")


def blocks(text, kind):
    """Yields (labels, body) for each top-level `kind "a" "b" {...}` block, matching braces."""
    for m in re.finditer(rf'^{kind}((?:\s+"[^"]*")*)\s*\{{', text, re.MULTILINE):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield re.findall(r'"([^"]*)"', m.group(1)), text[m.end():i - 1]


def top_level_attributes(body):
    names, depth = set(), 0
    for line in body.splitlines():
        if depth == 0:
            m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=", line)
            if m:
                names.add(m.group(1))
        depth += line.count("{") - line.count("}")
    return names


def lint_variables(path, text):
    for labels, body in blocks(text, "variable"):
        attrs = top_level_attributes(body)
        for needed in ("type", "description"):
            if needed not in attrs:
                problem(path, f"variable '{labels[0]}' has no {needed}")
        if labels[0] == "ssh_cidr":
            if not re.search(r"^\s*default\s*=\s*null\s*$", body, re.MULTILINE):
                problem(path, "variable 'ssh_cidr' must default to null (no SSH ingress unless asked)")
            if "/0" not in body:
                problem(path, "variable 'ssh_cidr' must refuse /0 in a validation")


def is_egress(rtype, body):
    return rtype.endswith("egress_rule") or re.search(r'direction\s*=\s*"(EGRESS|egress)"', body)


def lint_resources(path, text):
    for labels, body in blocks(text, "resource"):
        rtype, name = labels[0], labels[1]
        where = f"{rtype}.{name}"
        if re.search(r'"(0\.0\.0\.0/0|::/0)"', body) and not is_egress(rtype, body):
            problem(path, f"{where} opens 0.0.0.0/0 or ::/0 to ingress")
        if rtype not in UNTAGGABLE:
            attr = TAG_ATTRIBUTE.get(rtype.split("_")[0])
            if attr and attr not in top_level_attributes(body):
                problem(path, f"{where} has no {attr} (cost tags)")
        if rtype == "aws_instance":
            if not re.search(r'http_tokens\s*=\s*"required"', body):
                problem(path, f"{where} does not require IMDSv2 (http_tokens = \"required\")")
            if not re.search(r"encrypted\s*=\s*true", body):
                problem(path, f"{where} root volume is not encrypted")
        if rtype in ("oci_core_instance", "oci_core_instance_configuration") and \
                not re.search(r"are_legacy_imds_endpoints_disabled\s*=\s*true", body):
            problem(path, f"{where} leaves the legacy (v1) metadata endpoints enabled")
        if rtype.startswith("google_project_iam") or rtype.startswith("aws_iam_policy_attachment"):
            problem(path, f"{where}: no project- or account-wide grants; write only under the results prefix")
        if rtype == "google_storage_bucket_iam_member":
            lint_gcs_grant(path, where, body)
        if rtype == "google_secret_manager_secret_iam_member" and not (
                re.search(r'role\s*=\s*"roles/secretmanager\.secretAccessor"', body) and
                re.search(r"secret_id\s*=\s*var\.cluster\.munge_key_secret\s*$", body, re.MULTILINE)):
            problem(path, f"{where}: only secretAccessor, and only on the cluster's munge key secret")
        if rtype == "azurerm_network_security_rule" and re.search(r'direction\s*=\s*"Inbound"', body) and \
                re.search(r'source_address_prefix\s*=\s*"(\*|Internet|Any)"', body):
            problem(path, f"{where} opens inbound traffic from anywhere")
        if rtype == "azurerm_role_assignment":
            lint_azure_grant(path, where, body)


def lint_azure_grant(path, where, body):
    """Blob roles only with an ABAC condition on the blob path, scoped to a container; any other
    role only on the VM itself (the deallocate-self role)."""
    role = re.search(r'role_definition_name\s*=\s*"([^"]+)"', body)
    if role and role.group(1).startswith("Storage Blob Data"):
        if not re.search(r"condition\s*=", body):
            problem(path, f"{where} grants {role.group(1)} without a condition on the blob path")
        if not re.search(r"scope\s*=\s*\"\$\{local\.containers\}/", body):
            problem(path, f"{where} is not scoped to one container")
    elif not re.search(r"scope\s*=\s*azurerm_linux_virtual_machine\.this\.id", body):
        problem(path, f"{where}: a role other than blob data may be granted on the VM itself only")


def lint_gcs_grant(path, where, body):
    # On spot the results grant is Storage Object User (read and replace its own objects), else
    # Storage Object Creator: role = var.capacity == "spot" ? "roles/storage.objectUser" : "...".
    spot_role = re.search(r'role\s*=\s*var\.capacity\s*==\s*"spot"\s*\?\s*"roles/storage\.objectUser"\s*:\s*'
                          r'"roles/storage\.objectCreator"', body)
    role = re.search(r'role\s*=\s*"([^"]+)"', body)
    expression = re.search(r'expression\s*=\s*"(.*)"', body)
    if spot_role:
        role = spot_role
    if not role or not expression:
        problem(path, f"{where} must name a role and carry a condition")
        return
    if spot_role or role.group(1) == "roles/storage.objectCreator":
        if "startsWith" not in expression.group(1) or "results_path}/" not in expression.group(1):
            problem(path, f"{where} may create objects outside the results prefix")
    elif role.group(1) == "roles/storage.objectViewer":
        if "==" not in expression.group(1):
            problem(path, f"{where} may read more than the one image archive object")
    else:
        problem(path, f"{where} grants {role.group(1)}: only objectCreator (results) and objectViewer (archive)")


def lint_policies(path, text):
    """AWS policy statements and OCI policy statements, wherever they are written."""
    for action in re.findall(r"Action\s*=\s*\[([^\]]*)\]", text):
        for a in re.findall(r'"([^"]+)"', action):
            if a not in ("s3:PutObject", "s3:GetObject", "s3:ListBucket", "secretsmanager:GetSecretValue"):
                problem(path, f"IAM action {a}: only s3:PutObject (results), s3:GetObject (archive, resume) "
                              ", s3:ListBucket (its own prefix only) and secretsmanager:GetSecretValue "
                              "(a cluster's munge key)")
    for m in re.finditer(r'Action\s*=\s*\["secretsmanager:GetSecretValue"\]\s*Resource\s*=\s*\[([^\]]*)\]', text):
        if m.group(1).strip() != "var.cluster.munge_key_secret_arn":
            problem(path, f"secretsmanager:GetSecretValue on {m.group(1).strip()}: only the cluster's munge key secret")
    if "secretsmanager:GetSecretValue" in text and not re.search(
            r'Action\s*=\s*\["secretsmanager:GetSecretValue"\]\s*Resource', text):
        problem(path, "secretsmanager:GetSecretValue must stand alone in its statement, followed by its Resource")
    prefix_only = re.search(r'"s3:prefix"\s*=\s*\["\$\{module\.cloud_init\.results_path\}/\*"\]', text)
    if "s3:ListBucket" in text and not prefix_only:
        problem(path, "s3:ListBucket without a Condition limiting s3:prefix to the results path")
    for resource in re.findall(r"Resource\s*=\s*\[([^\]]*)\]", text):
        for r in re.findall(r'"([^"]+)"', resource):
            bucket_for_listing = prefix_only and r.endswith("{var.results_bucket}")
            if not (r.endswith("results_path}/*") or r.endswith("image_archive_object}") or
                    r.endswith("package_object}") or bucket_for_listing):
                problem(path, f"IAM resource {r}: only <bucket>/<results path>/*, the archive or the package object")
    for statement in re.findall(r'"(Allow [^"]*)"', text):
        if "manage object" not in statement:
            continue
        # Creating objects under the prefix; on spot also reading and overwriting them (resume): one
        # permission a statement, every condition required (where all {...}, nothing nested).
        permissions = re.findall(r"request\.permission\s*=\s*'([A-Z_]+)'", statement)
        under_prefix = re.search(r"target\.object\.name\s*=\s*/\$\{module\.cloud_init\.results_path\}/\*/", statement)
        spot_read = "'${permission}'" in statement and 'for permission in ["OBJECT_READ", "OBJECT_OVERWRITE"]' in text
        flat_all = re.search(r"where all \{[^{}]*\}$", re.sub(r"\$\{[^{}]*\}", "X", statement))
        if not (under_prefix and flat_all and (permissions == ["OBJECT_CREATE"] or spot_read)):
            problem(path, f"OCI statement grants more than creating (on spot: reading and overwriting) objects "
                          f"under the prefix: {statement}")
        if re.search(r"object-family|buckets|in tenancy", statement):
            problem(path, f"OCI statement is broader than objects in one compartment: {statement}")


SPOT_SETTINGS = (r'market_type\s*=\s*"spot"', r'provisioning_model\s*=\s*"SPOT"', r"preemptible_instance_config",
                 r'priority\s*=.*"Spot"')


def lint_spot(directory, texts):
    """Spot capacity only with the resume path wired: the runner told the capacity (it then uploads
    as it goes and watches the notice) and the identity allowed to read its own prefix back."""
    text = "\n".join(texts)
    if not any(re.search(pattern, text) for pattern in SPOT_SETTINGS):
        return
    if not re.search(r"capacity\s*=\s*var\.capacity", text):
        problem(directory, "spot capacity without passing capacity to the cloud-init module (no uploads as it goes)")
    # Each cloud's read of the prefix on spot (a replacement reads the run back by name).
    reads = ("ReadOwnResultsToResume",                                          # AWS: s3:GetObject there
             "ActionMatches{'${local.blobs}/read'})) OR (@Resource[${local.blobs}:path] StringStartsWith",  # Azure
             'var.capacity == "spot" ? "roles/storage.objectUser"',             # GCP: under the prefix condition
             'for permission in ["OBJECT_READ", "OBJECT_OVERWRITE"]')          # OCI
    if not any(r in text for r in reads):
        problem(directory, "spot capacity without the identity's read of its own results prefix (no resume)")


# What puts instances close together (in a resource: a module's input only passes it on), and the
# local that says the shape allows it: a module that asks for one must check the shape first (a
# precondition on that local), since the cloud refuses the launch late or places the nodes apart.
PLACEMENT_SETTINGS = {
    "placement group": (r"^\s*placement_group\s*=", "placement_supported"),  # AWS cluster placement group
    "EFA interface": (r'interface_type\s*=\s*[^\n]*"efa"', "efa_supported"),  # AWS Elastic Fabric Adapter
    "compact placement": (r'collocation\s*=\s*"COLLOCATED"', "compact_placement_supported"),  # GCP
}


def called_modules_text(directory, texts):
    """The .tf text of the local modules these files call (source = "../x"): a placement resource
    made here and handed to a module is checked by that module's precondition."""
    out = []
    for source in re.findall(r'source\s*=\s*"(\.\.?/[^"]+)"', "\n".join(texts)):
        module = os.path.normpath(os.path.join(directory, source))
        if os.path.isdir(module):
            for name in sorted(os.listdir(module)):
                if name.endswith(".tf"):
                    with open(os.path.join(module, name)) as f:
                        out.append(f.read())
    return out


def lint_placement(directory, texts):
    text = "\n".join(texts + called_modules_text(directory, texts))
    resources = [(labels, body) for t in texts for labels, body in blocks(t, "resource")]
    asked = {what: local for what, (pattern, local) in PLACEMENT_SETTINGS.items()
             if any(re.search(pattern, body, re.MULTILINE) for _, body in resources)}
    if any(labels[0] == "oci_core_cluster_network" for labels, _ in resources):
        asked["OCI cluster network"] = "cluster_network_supported"
    for what, local in asked.items():
        if not re.search(rf"precondition\s*\{{\s*condition\s*=[^\n]*local\.{local}", text):
            problem(directory, f"{what} without a precondition on local.{local} (placement only on shapes "
                               "that support it)")


def lint_module(directory, files):
    if "README.md" not in os.listdir(directory):
        problem(directory, "module has no README.md")
    if "versions.tf" not in files:
        problem(directory, "module has no versions.tf")
        return
    with open(os.path.join(directory, "versions.tf")) as f:
        versions = f.read()
    if "required_version" not in versions:
        problem(directory, "versions.tf does not pin the Terraform version")
    used = set()
    for name in files:
        with open(os.path.join(directory, name)) as f:
            used |= {m.split("_")[0] for m in re.findall(r'^(?:resource|data)\s+"([a-z0-9_]+)"', f.read(), re.M)}
    for provider in used:
        if not re.search(rf'{provider}\s*=\s*\{{[^}}]*version\s*=', versions):
            problem(directory, f"versions.tf does not pin the {provider} provider")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "infra", "terraform")
    modules = 0
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = [d for d in subdirs if not d.startswith(".")]
        files = sorted(n for n in names if n.endswith(".tf"))
        if not files:
            continue
        modules += 1
        lint_module(directory, files)
        texts = []
        for name in files:
            path = os.path.join(directory, name)
            with open(path) as f:
                text = f.read()
            texts.append(text)
            lint_variables(path, text)
            lint_resources(path, text)
            lint_policies(path, text)
        lint_spot(directory, texts)
        lint_placement(directory, texts)
    for p in problems:
        print(p)
    print(f"terraform lint: {modules} modules, {len(problems)} problems")
    return 1 if problems or modules == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
