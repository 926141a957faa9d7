#!/usr/bin/env python3
"""Copies a hostside recording (a `hostside snapshot` tar.gz of a GPU node) with a failed row remap
planted into GPU 0's NVML answer: what .ci/fleet-test drains a node for.

The NVML answer is the recording's JSON document whose "gpus" list holds GPUs with "memory"
(hostside.gpu.nvml.NvmlHealth as Jackson writes it: gpus[].memory.remappedRows.failureOccurred),
found by that shape rather than by its file name. Standard library only.

    plant-row-remap.py CLEAN.tar.gz BAD.tar.gz
"""
import io
import json
import sys
import tarfile


def nvml_answer(doc):
    gpus = doc.get("gpus") if isinstance(doc, dict) else None
    return isinstance(gpus, list) and gpus and isinstance(gpus[0], dict) and isinstance(gpus[0].get("memory"), dict)


def main(src, dst):
    planted = None
    with tarfile.open(src, "r:gz") as tin, tarfile.open(dst, "w:gz") as tout:
        for m in tin.getmembers():
            data = tin.extractfile(m).read() if m.isfile() else None
            if data is not None and planted is None and m.name.endswith(".json"):
                try:
                    doc = json.loads(data)
                except ValueError:
                    doc = None
                if nvml_answer(doc):
                    rows = doc["gpus"][0]["memory"].get("remappedRows")
                    if not isinstance(rows, dict):
                        sys.exit(f"{src}: {m.name}: GPU 0 has no remappedRows answer to plant into")
                    rows["failureOccurred"] = True
                    data = json.dumps(doc).encode()
                    m.size = len(data)
                    planted = m.name
            tout.addfile(m, io.BytesIO(data) if data is not None else None)
    if planted is None:
        sys.exit(f"{src}: no NVML answer (a JSON document with gpus[].memory) in the recording")
    print(f"planted remappedRows.failureOccurred=true into GPU 0 of {planted}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
