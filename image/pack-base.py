#!/usr/bin/env python3
"""Pack a root filesystem directory as a single-layer image in `docker save` format.

    pack-base.py ROOTFS OUT.tar ARCH JAVA_HOME TAG

The result is what `docker save` writes (manifest.json, the config JSON, one gzipped layer tar),
which Jib reads as a base image through `tar:///abs/path/OUT.tar`, no registry and no daemon.
The layer is made with GNU tar (keeps hard links, numeric owners, modes) in name order with
`--mtime` clamping, and gzipped without a timestamp, so the same rootfs gives the same layer digest.
"""
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    rootfs, out, arch, java_home, tag = sys.argv[1:6]
    work = tempfile.mkdtemp(prefix="verso-base-", dir=os.path.dirname(os.path.abspath(out)))
    try:
        layer = os.path.join(work, "layer.tar")
        entries = sorted(os.listdir(rootfs))
        subprocess.run(
            ["tar", "--create", "--file", layer, "--directory", rootfs, "--numeric-owner",
             "--sort=name", "--mtime=2000-01-01 00:00:00Z", "--clamp-mtime", "--xattrs",
             "--", *entries],
            check=True)
        diff_id = sha256_file(layer)
        layer_gz = os.path.join(work, "layer.tar.gz")
        with open(layer, "rb") as src, open(layer_gz, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        os.remove(layer)
        layer_digest = sha256_file(layer_gz)

        config = {
            "architecture": arch,
            "os": "linux",
            "created": "2000-01-01T00:00:00Z",
            "config": {
                "Env": [
                    "PATH=" + java_home + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                    "JAVA_HOME=" + java_home,
                    "LANG=C.UTF-8",
                ],
                "WorkingDir": "/",
            },
            "rootfs": {"type": "layers", "diff_ids": ["sha256:" + diff_id]},
            "history": [{
                "created": "2000-01-01T00:00:00Z",
                "created_by": "debootstrap --variant=minbase --include=ca-certificates bookworm, a jlinked Temurin 25 runtime at " + java_home + " (image/build.sh)",
            }],
        }
        config_bytes = json.dumps(config, separators=(",", ":")).encode()
        config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
        layer_name = layer_digest + "/layer.tar.gz"
        manifest = [{"Config": config_name, "RepoTags": [tag], "Layers": [layer_name]}]

        tmp_out = out + ".tmp"
        with tarfile.open(tmp_out, "w", format=tarfile.PAX_FORMAT) as t:
            def add_bytes(name, data):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = 0o644

                t.addfile(info, io.BytesIO(data))
            add_bytes("manifest.json", json.dumps(manifest).encode())
            add_bytes(config_name, config_bytes)
            t.add(layer_gz, arcname=layer_name, filter=lambda i: _plain(i))
        os.replace(tmp_out, out)
        print(f"{out}: layer sha256:{layer_digest} (diff_id sha256:{diff_id})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _plain(info):
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mtime = 0
    info.mode = 0o644
    return info


if __name__ == "__main__":
    main()
