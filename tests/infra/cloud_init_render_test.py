"""Renders every cloud-init document the aws, gcp and oci modules produce (an x86, an Arm and a GPU
shape on each cloud) with templatefile() through `terraform console`, and checks each one: it is a
#cloud-config YAML document; the hard time limit is armed in bootcmd; every embedded script passes
`bash -n` and shellcheck; the `docker run` line has the right flags, image, suite and labels; the
suite shipped is the one given; the results path is <prefix>/<cloud>/<system>/<execution_id>; no
secret-looking value is in it. Exit 1 on any failure. (cloud-init's own schema check needs
Debian's cloud-init, so it runs in a container: cloud_init_schema_test.sh.)
"""
import base64
import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render_cloud_init as rci  # noqa: E402

failures = []


def check(what, ok, detail=""):
    print(("ok: " if ok else "FAILED: ") + what + ("" if ok else f" -- {detail}"))
    if not ok:
        failures.append(what)


def docker_run_words(run_container):
    line = next((ln for ln in run_container.splitlines() if ln.startswith("exec docker run ")), None)
    return shlex.split(line)[1:] if line else []


def check_docker_run(name, words, cloud, shape, system_name, arch, gpu):
    check(f"{name}: a docker run line", words[:2] == ["docker", "run"], words)
    image = f"perfzero-cpp:0.1.0-{arch}"
    check(f"{name}: runs image {image}", image in words, words)
    if image not in words:
        return
    split = words.index(image)
    flags, args = words[:split], words[split + 1:]
    check(f"{name}: --gpus all exactly on GPU shapes", (flags.count("--gpus") == 1) == gpu and
          (not gpu or flags[flags.index("--gpus") + 1] == "all"), flags)
    check(f"{name}: detached, named, never pulls again",
          {"--detach", "--name", "$container", "--pull", "never"} <= set(flags), flags)
    check(f"{name}: the suite is mounted read-only",
          '$config_dir/suite.yaml:/config/suite.yaml:ro' in flags, flags)
    check(f"{name}: the results directory is mounted", '$state_dir/results:/results' in flags, flags)
    expected = ["--config=/config/suite.yaml", f"--platform_name={cloud}", f"--system_name={system_name}",
                f"--instance_type={shape}", "--execution_label=nightly", "--execution_id=fleet-test-1",
                "--output_dir=/results/fleet-test-1", "$@"]  # "$@": --resume, when the runner continues a run
    check(f"{name}: perfzero gets the suite and labels", args == expected, args)


def check_scripts(name, files, work):
    for path, content in files.items():
        if not path.endswith(".sh"):
            continue
        local = os.path.join(work, os.path.basename(path))
        with open(local, "w") as f:
            f.write(content)
        syntax = subprocess.run(["bash", "-n", local], capture_output=True, text=True)
        check(f"{name}: bash -n {path}", syntax.returncode == 0, syntax.stderr)
        lint = subprocess.run(["shellcheck", "--shell=bash", "--severity=style", local],
                              capture_output=True, text=True)
        check(f"{name}: shellcheck {path}", lint.returncode == 0, lint.stdout)


def check_case(cloud, shape, extra, arch, gpu, work):
    name = rci.case_name(cloud, shape)
    inputs = rci.case_inputs(cloud, shape, extra)
    out = rci.render(inputs)
    doc_text = out["user_data"]
    check(f"{name}: starts with #cloud-config", doc_text.startswith("#cloud-config\n"), doc_text[:40])
    doc = yaml.safe_load(doc_text)
    check(f"{name}: architecture {arch}", out["architecture"] == arch, out["architecture"])
    check(f"{name}: gpu {gpu}", out["gpu"] == gpu, out["gpu"])
    system_name = rci.SYSTEM_NAMES.get(shape, shape)
    check(f"{name}: system_name {system_name}", out["system_name"] == system_name, out["system_name"])
    check(f"{name}: results path", out["results_path"] ==
          f"bench/perfzero/{cloud}/{system_name}/fleet-test-1", out["results_path"])
    boot = " ".join(" ".join(c) if isinstance(c, list) else c for c in doc.get("bootcmd", []))
    # An Azure VM that only powers off is still billed: it deallocates itself.
    ends = "azure-deallocate.sh" if cloud == "azure" else "poweroff"
    check(f"{name}: hard time limit armed at boot", "--on-active=45min" in boot and ends in boot, boot)
    files = {}
    for entry in doc.get("write_files", []):
        content = entry["content"]
        if entry.get("encoding") == "b64":
            content = base64.b64decode(content).decode()
        elif entry.get("encoding") == "gz+b64":
            content = gzip.decompress(base64.b64decode(content)).decode()
        files[entry["path"]] = content
        if entry["path"].endswith(".sh"):
            check(f"{name}: {entry['path']} is executable", entry.get("permissions") == "0755", entry)
    check(f"{name}: ships the suite", files.get("/etc/perfzero/suite.yaml") == rci.SUITE)
    check(f"{name}: ships the {cloud} uploader", f"/usr/local/lib/perfzero/storage-{cloud}.sh" in files, list(files))
    other = [c for c in ("aws", "gcp", "oci", "azure") if c != cloud]
    check(f"{name}: no other cloud's uploader", not any(f"storage-{c}.sh" in p for c in other for p in files))
    check(f"{name}: runcmd runs the runner", doc.get("runcmd") ==
          [["/usr/local/lib/perfzero/perfzero-runner.sh", "/etc/perfzero/run.env"]], doc.get("runcmd"))
    check(f"{name}: the rendered container script is the one shipped",
          files.get("/usr/local/lib/perfzero/run-container.sh") == out["run_container"])
    env = files.get("/etc/perfzero/run.env", "")
    check(f"{name}: run.env names the archive for {arch}",
          f"PERFZERO_IMAGE_ARCHIVE_OBJECT='images/perfzero-cpp-0.1.0-{arch}.tar.gz'" in env, env)
    if cloud == "azure":
        check(f"{name}: run.env names the storage account", "PERFZERO_AZURE_STORAGE_ACCOUNT='pzresults'" in env, env)
        check(f"{name}: ships the deallocation script", "/usr/local/lib/perfzero/azure-deallocate.sh" in files,
              list(files))
        check(f"{name}: the runner deallocates at the end", "azure-deallocate.sh" in env, env)
    secret = re.search(r"(AKIA[0-9A-Z]{16}|BEGIN [A-Z ]*PRIVATE KEY|aws_secret_access_key|password\s*[:=])",
                       doc_text, re.IGNORECASE)
    check(f"{name}: no secret in user data", secret is None, secret and secret.group(0))
    check_docker_run(name, docker_run_words(out["run_container"]), cloud, shape, system_name, arch, gpu)
    check_scripts(name, files, work)
    check_size(name, cloud, doc_text)


# What each cloud takes as user data, as its module sends it: EC2 16 KiB gzipped (user_data_base64 =
# base64gzip), OCI 32,000 bytes of metadata base64-encoded and gzipped, Azure 64 KiB of custom data,
# GCP 256 KiB per metadata value. Terraform's gzip is Go's default level, close to Python's 6.
def check_size(name, cloud, doc_text):
    raw = doc_text.encode()
    sent = {"aws": len(gzip.compress(raw, 6)), "oci": len(base64.b64encode(gzip.compress(raw, 6))),
            "azure": len(raw), "gcp": len(raw)}[cloud]
    limit = {"aws": 16384, "oci": 32000 - 1024, "azure": 65535, "gcp": 262144}[cloud]  # 1 KiB for an ssh key
    check(f"{name}: user data within {cloud}'s limit ({sent} of {limit} bytes as sent)", sent <= limit - 2048)


def check_cluster(work):
    """The cluster example's nodes: the head and a compute node, and what the module refuses."""
    for index in (0, 2):
        name = f"cluster-node{index}"
        out = rci.render(rci.cluster_inputs(index))
        doc_text = out["user_data"]
        doc = yaml.safe_load(doc_text)
        files = {e["path"]: e["content"] for e in doc.get("write_files", [])}
        check(f"{name}: named for the shape and the node count", out["system_name"] == "c7i.xlarge-x3",
              out["system_name"])
        check(f"{name}: runcmd joins the cluster", doc.get("runcmd") ==
              [["/usr/local/lib/perfzero/perfzero-cluster.sh", "/etc/perfzero/run.env"]], doc.get("runcmd"))
        for script in ("perfzero-cluster.sh", "slurm-node.sh", "run-native.sh", "perfzero-runner.sh"):
            check(f"{name}: ships {script}", f"/usr/local/lib/perfzero/{script}" in files, list(files))
        env = files.get("/etc/perfzero/run.env", "")
        check(f"{name}: run.env names every node, the head first",
              "PERFZERO_CLUSTER_HOSTS='pz-node0=10.213.8.11 pz-node1=10.213.8.12 pz-node2=10.213.8.13'" in env, env)
        check(f"{name}: run.env says which node this is", f"PERFZERO_CLUSTER_INDEX='{index}'" in env, env)
        check(f"{name}: the munge key is named, never shipped", "secret:perfzero-munge-AbCdEf'" in env and
              not any("munge.key" in p for p in files), list(files))
        check(f"{name}: the packages for amd64", "PERFZERO_PACKAGE_OBJECTS='packages/perfzero_0.1.0_amd64.deb "
              "packages/perfzero-mpi_0.1.0_amd64.deb'" in env, env)
        native = files.get("/usr/local/lib/perfzero/run-native.sh", "")
        check(f"{name}: the head runs perfzero on the host with the run's labels",
              "exec perfzero " in native and "'--system_name=c7i.xlarge-x3'" in native, native)
        check_scripts(name, files, work)
        check_size(name, "aws", doc_text)
    # The same node on GCP: its uploader reads the key from Secret Manager.
    gcp_inputs = dict(rci.cluster_inputs(1), cloud="gcp", shape="c2d-standard-16")
    gcp_inputs["cluster"] = dict(gcp_inputs["cluster"], munge_key_secret="projects/my-project/secrets/pz-munge")
    out = rci.render(gcp_inputs)
    doc = yaml.safe_load(out["user_data"])
    files = {e["path"]: e["content"] for e in doc.get("write_files", [])}
    check("cluster-gcp-node1: named for the machine type and the node count",
          out["system_name"] == "c2d-standard-16-x3", out["system_name"])
    check("cluster-gcp-node1: the GCP uploader reads secrets",
          "versions/latest:access" in files.get("/usr/local/lib/perfzero/storage-gcp.sh", ""), list(files))
    check("cluster-gcp-node1: run.env names the secret",
          "PERFZERO_MUNGE_KEY_SECRET='projects/my-project/secrets/pz-munge'" in files.get("/etc/perfzero/run.env", ""))
    check_scripts("cluster-gcp-node1", files, work)
    check_size("cluster-gcp-node1", "gcp", out["user_data"])
    # The example's default suite: the head's user data still fits EC2's 16 KiB.
    with open(os.path.join(rci.SOURCE_DIR, "benchmarks", "suites", "cluster_interconnect.yaml")) as f:
        default_suite = f.read()
    check_size("cluster-node0 with cluster_interconnect.yaml", "aws",
               rci.render(rci.cluster_inputs(0, suite=default_suite))["user_data"])
    # Spot is refused by an output's precondition (a validation reading another variable would need
    # Terraform 1.9): plan evaluates it, console does not.
    spot = rci.plan(dict(rci.cluster_inputs(0), capacity="spot"))
    check("the module refuses a spot cluster at plan",
          spot.returncode != 0 and "A cluster runs on on_demand capacity only" in spot.stderr, spot.stderr[-400:])
    on_demand = rci.plan(rci.cluster_inputs(0))
    check("the module plans an on-demand cluster node", on_demand.returncode == 0, on_demand.stderr[-400:])
    # A discovering cluster (an OCI cluster network): one document for every node, the hosts read
    # from the object the module names, which the caller writes.
    out = rci.render(rci.cluster_inputs(None))
    env = out["run_env"]
    hosts_object = "bench/perfzero/aws/c7i.xlarge-x3/cluster-test-1/cluster-hosts.txt"
    check("cluster-discovering: run.env names the hosts object and no hosts, no index",
          f"PERFZERO_CLUSTER_HOSTS_OBJECT='{hosts_object}'" in env and "PERFZERO_CLUSTER_HOSTS=''" in env and
          "PERFZERO_CLUSTER_INDEX=''" in env, env)
    check("cluster-discovering: the module gives the object's name", out.get("cluster_hosts_object") == hosts_object,
          out.get("cluster_hosts_object"))
    check("cluster-node0: no hosts object when the addresses are fixed",
          "PERFZERO_CLUSTER_HOSTS_OBJECT=''" in rci.render(rci.cluster_inputs(0))["run_env"])
    refused = {
        "a cluster of one": rci.cluster_inputs(0, size=1),
        "an index outside it": rci.cluster_inputs(3),
        "a subnet too small": rci.cluster_inputs(0, size=3, subnet_cidr="10.0.0.0/29", first_host=6),
        "a discovering cluster with an index": dict(rci.cluster_inputs(None),
                                                     cluster=dict(rci.cluster_inputs(None)["cluster"], index=0)),
    }
    for what, inputs in refused.items():
        try:
            rci.render(inputs)
            check(f"the module refuses {what}", False)
        except RuntimeError as e:
            check(f"the module refuses {what}", "Invalid value for variable" in str(e), str(e)[-400:])


def main():
    for tool in ("terraform", "shellcheck"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (scripts/install-deps.sh installs it)")
            return 1 if os.environ.get("CI") == "true" else 77
    with tempfile.TemporaryDirectory() as work:
        for cloud, shape, extra, arch, gpu in rci.CASES:
            check_case(cloud, shape, extra, arch, gpu, work)
        check_cluster(work)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
