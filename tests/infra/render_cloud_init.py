"""Renders the cloud-init template family (infra/terraform/cloud-init) through `terraform console`,
offline: the module needs no provider. Used by the infra tests; also runnable by hand:
    python3 tests/infra/render_cloud_init.py OUT_DIR                  # one .yaml per case in CASES
                                                                       # and per cluster node (two)
    python3 tests/infra/render_cloud_init.py --extract INPUTS.json ROOT  # renders the module with
        these inputs and writes the files the document installs under ROOT (ROOT/etc/perfzero/...),
        as cloud-init's write_files would, plus ROOT/user-data.yaml
    python3 tests/infra/render_cloud_init.py --cluster-inputs INDEX SIZE CIDR FIRST_HOST SUITE_FILE EXECUTION_ID
        prints the inputs of the cluster example's node INDEX (for --extract); INDEX `discover`:
        every node's inputs, as an OCI cluster network's nodes share them (hosts read from storage)
"""
import base64
import contextlib
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULE_DIR = os.path.join(SOURCE_DIR, "infra", "terraform", "cloud-init")

SUITE = "suite: fleet_test\nmethods:\n  - sanity.Sanity.benchmark_noop\n"

# (cloud, shape, extra module inputs, expected architecture, expected gpu): an x86, an Arm and a
# GPU shape on each cloud, as the fleet example uses them.
CASES = [
    ("aws", "c7i.xlarge", {}, "amd64", False),
    ("aws", "c7g.xlarge", {}, "arm64", False),
    ("aws", "g5.xlarge", {}, "amd64", True),
    ("gcp", "n2-standard-4", {}, "amd64", False),
    ("gcp", "t2a-standard-4", {}, "arm64", False),
    ("gcp", "g2-standard-4", {}, "amd64", True),
    ("oci", "VM.Standard.E5.Flex", {"ocpus": 2, "memory_gb": 16}, "amd64", False),
    ("oci", "VM.Standard.A1.Flex", {"ocpus": 4, "memory_gb": 24}, "arm64", False),
    ("oci", "VM.GPU.A10.1", {}, "amd64", True),
    ("azure", "Standard_D4s_v5", {"azure_storage_account": "pzresults"}, "amd64", False),
    ("azure", "Standard_D4ps_v5", {"azure_storage_account": "pzresults"}, "arm64", False),
    ("azure", "Standard_NC4as_T4_v3", {"azure_storage_account": "pzresults", "capacity": "spot"}, "amd64", True),
]


# The --system_name each case must get (flexible shapes carry their size).
SYSTEM_NAMES = {"VM.Standard.E5.Flex": "VM.Standard.E5.Flex-2ocpu-16gb", "VM.Standard.A1.Flex": "VM.Standard.A1.Flex-4ocpu-24gb"}


def cluster_inputs(index, size=3, subnet_cidr="10.213.8.0/24", first_host=11, suite=SUITE,
                   execution_id="cluster-test-1"):
    """Node `index` of the AWS cluster that infra/terraform/examples/cluster launches: the same
    `cluster` input the example passes through the aws module."""
    inputs = case_inputs("aws", "c7i.xlarge", {})  # a priced type, so that the report bills the cluster
    inputs.update({
        "suite_yaml": suite,
        "execution_id": execution_id,
        "execution_label": "cluster",
        "image_archive_object": None,
        "cluster": {
            "size": size,
            "index": index,
            "subnet_cidr": subnet_cidr,
            "first_host": first_host,
            # The cluster test's moto makes the secret and says its ARN, which moto chooses.
            "munge_key_secret": os.environ.get("PERFZERO_TEST_MUNGE_SECRET",
                                               "arn:aws:secretsmanager:us-east-1:123456789012:secret:perfzero-munge-AbCdEf"),
            "package_objects": ["packages/perfzero_0.1.0_{arch}.deb", "packages/perfzero-mpi_0.1.0_{arch}.deb"],
        },
    })
    if index is None:  # the nodes find their place in a hosts object (cluster.discover)
        inputs["cluster"].update({"index": None, "subnet_cidr": None, "discover": True})
    return inputs


def case_inputs(cloud, shape, extra):
    inputs = {
        "cloud": cloud,
        "shape": shape,
        "image_reference": "perfzero-cpp:0.1.0-{arch}",
        "image_archive_object": "images/perfzero-cpp-0.1.0-{arch}.tar.gz",
        "suite_yaml": SUITE,
        "execution_id": "fleet-test-1",
        "execution_label": "nightly",
        "results_bucket": "perfzero-results",
        "results_prefix": "bench/perfzero",
        "time_limit_minutes": 45,
    }
    if cloud == "oci":
        inputs["oci_namespace"] = "tenancyns"
    inputs.update(extra)
    return inputs


@contextlib.contextmanager
def module_copy(inputs):
    """A copy of the module with these inputs as a var file: (module dir, var file, environment).
    `terraform console` and `plan` take the module directory's state lock, so two renders in one
    directory (ctest runs the infra tests in parallel) fail with "Error acquiring the state lock";
    each gets its own copy, which also keeps the source tree unwritten."""
    with tempfile.TemporaryDirectory(prefix="pz-cloud-init-") as work:
        module = os.path.join(work, "cloud-init")
        shutil.copytree(MODULE_DIR, module, ignore=shutil.ignore_patterns(".terraform*", "terraform.tfstate*"))
        var_file = os.path.join(work, "inputs.tfvars.json")
        with open(var_file, "w") as f:
            json.dump(inputs, f)
        yield module, var_file, dict(os.environ, TF_CLI_CONFIG_FILE=os.devnull, TF_IN_AUTOMATION="1",
                                     CHECKPOINT_DISABLE="1")


def render(inputs):
    """Returns the module's outputs for these inputs as a dict (user_data, run_container, ...)."""
    expression = ("base64encode(jsonencode({user_data = local.user_data, run_container = local.run_container,"
                  " run_env = local.run_env, architecture = local.architecture, gpu = local.gpu,"
                  " results_path = local.results_path, results_url = local.results_url,"
                  " system_name = local.system_name,"
                  " cluster_hosts_object = local.discover ? local.cluster_hosts_object : null}))")
    with module_copy(inputs) as (module, var_file, env):
        proc = subprocess.run(["terraform", f"-chdir={module}", "console", f"-var-file={var_file}"],
                              input=expression + "\n", capture_output=True, text=True, env=env, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"terraform console failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    encoded = proc.stdout.strip().splitlines()[-1].strip().strip('"')
    return json.loads(base64.b64decode(encoded))


def plan(inputs):
    """`terraform plan` of the module with these inputs (it has no provider, so init and plan run
    offline): the outputs' preconditions, which `console` does not evaluate. Returns the process."""
    with module_copy(inputs) as (module, var_file, env):
        init = subprocess.run(["terraform", f"-chdir={module}", "init", "-input=false", "-no-color"],
                              capture_output=True, text=True, env=env, timeout=120)
        if init.returncode != 0:
            return init
        return subprocess.run(["terraform", f"-chdir={module}", "plan", "-input=false", "-no-color",
                               f"-var-file={var_file}"], capture_output=True, text=True, env=env, timeout=120)


def case_name(cloud, shape):
    return f"{cloud}-{shape.replace('.', '-').replace('_', '-').lower()}"


def extract(inputs_path, root):
    import yaml  # Debian's python3-yaml; only this mode needs it

    with open(inputs_path) as f:
        rendered = render(json.load(f))
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "user-data.yaml"), "w") as f:
        f.write(rendered["user_data"])
    for entry in yaml.safe_load(rendered["user_data"])["write_files"]:
        content = entry["content"].encode()
        if entry.get("encoding") == "b64":
            content = base64.b64decode(content)
        elif entry.get("encoding") == "gz+b64":
            content = gzip.decompress(base64.b64decode(content))
        path = os.path.join(root, entry["path"].lstrip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
        os.chmod(path, int(entry.get("permissions", "0644"), 8))
        print(path)


def main():
    if sys.argv[1] == "--extract":
        extract(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--cluster-inputs":
        with open(sys.argv[6]) as f:
            suite = f.read()
        index = None if sys.argv[2] == "discover" else int(sys.argv[2])
        print(json.dumps(cluster_inputs(index, int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), suite, sys.argv[7])))
        return
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    documents = [(case_name(cloud, shape), case_inputs(cloud, shape, extra)) for cloud, shape, extra, _, _ in CASES]
    documents += [(f"aws-cluster-node{i}", cluster_inputs(i)) for i in (0, 1)]
    documents += [("aws-cluster-discovering-node", cluster_inputs(None))]
    for name, inputs in documents:
        rendered = render(inputs)
        path = os.path.join(out_dir, name + ".yaml")
        with open(path, "w") as f:
            f.write(rendered["user_data"])
        print(path)


if __name__ == "__main__":
    main()
