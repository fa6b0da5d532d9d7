"""Marks a local image as linux/arm64 in its config: `docker import --platform` and the legacy
builder record the daemon's architecture (amd64) for an image whose files are arm64, and Docker on
an Arm host warns about such an image. Reads `docker save` output on stdin, writes a loadable
archive on stdout with the config's architecture (and variant) replaced.
    docker save IMAGE | python3 set_image_arch.py arm64 v8 | docker load
"""
import hashlib
import io
import json
import sys
import tarfile


def main():
    arch, variant = sys.argv[1], sys.argv[2]
    src = tarfile.open(fileobj=io.BytesIO(sys.stdin.buffer.read()), mode="r:")
    members = {m.name: m for m in src.getmembers()}
    manifest = json.load(src.extractfile("manifest.json"))
    renamed = {}
    for entry in manifest:
        config = json.load(src.extractfile(entry["Config"]))
        config["architecture"] = arch
        config["variant"] = variant
        data = json.dumps(config, separators=(",", ":")).encode()
        name = hashlib.sha256(data).hexdigest() + ".json"
        renamed[entry["Config"]] = (name, data)
        entry["Config"] = name
    out = tarfile.open(fileobj=sys.stdout.buffer, mode="w|")
    for name, member in members.items():
        if name == "manifest.json" or name in renamed:
            continue
        out.addfile(member, src.extractfile(member) if member.isfile() else None)
    for name, data in [v for v in renamed.values()] + [("manifest.json", json.dumps(manifest).encode())]:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        out.addfile(info, io.BytesIO(data))
    out.close()


if __name__ == "__main__":
    main()
