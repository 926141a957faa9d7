"""hostside's host<->device copies beside nvbandwidth (the pinned copies: its *_memcpy_ce cases) and
PyTorch's tensor.copy_ (the pageable ones: bench/pytorch-copies.py), on one GPU machine."""
import json
import re
import shutil
import subprocess

from harness import tools
from harness.scenario import Scenario, figures
from harness.table import Row

PAIRS = [("host_to_device_ce_pinned", "nvbandwidth host_to_device_memcpy_ce", "host_to_device_memcpy_ce"),
         ("device_to_host_ce_pinned", "nvbandwidth device_to_host_memcpy_ce", "device_to_host_memcpy_ce"),
         ("host_to_device_ce_pageable", "PyTorch copy_, pageable (bench/pytorch-copies.py)", "h2d_pageable"),
         ("device_to_host_ce_pageable", "PyTorch copy_, pageable (bench/pytorch-copies.py)", "d2h_pageable")]


class Copies(Scenario):
    name = "copies"
    prints = ("the four host<->device copies of `hostside machine` (GB/s): pinned beside nvbandwidth's "
              "host_to_device_memcpy_ce / device_to_host_memcpy_ce, pageable beside PyTorch's copy_")
    order = "nvbandwidth, hostside, PyTorch"

    def rows(self, bench):
        rows = {key: Row(key, "GB/s", label) for key, label, _ in PAIRS}
        gpu = _gpu()
        nvb, nvb_missing = bench.peers.find("nvbandwidth")
        torch = _torch()
        if gpu:
            bench.say(f"GPU: {gpu}")
        for r in range(1, bench.rounds + 1):
            bench.say(f"round {r}/{bench.rounds}")
            if not gpu:
                nvb_why = torch_why = "no NVIDIA GPU here (nvidia-smi -L lists none)"
            else:
                nvb_why, torch_why = nvb_missing, torch
            if gpu and nvb:
                p = bench.peer(nvb + ["-t", "host_to_device_memcpy_ce", "device_to_host_memcpy_ce"], f"r{r}-nvbandwidth")
                for key, _, case in PAIRS[:2]:
                    m = re.search(r"SUM " + case + r"\s+([0-9.]+)", p.text())
                    rows[key].peers.append(float(m[1]) if m else None)
                    if not m:
                        rows[key].peer_missing = p.why() if not p.ok else f"no SUM {case} line"
            else:
                for key, _, _ in PAIRS[:2]:
                    rows[key].peer_missing = nvb_why
            hs = bench.hs(f"r{r}-hostside", "machine", "--json", "--only", ",".join(k for k, _, _ in PAIRS))
            got = figures(hs)
            for key, row in rows.items():
                f = got.get(key)
                row.hostside.append(f["value"] if f else None)
                if not f:
                    row.hostside_missing = (hs.why() if not hs.ok else f"no {key} figure") if gpu else "no NVIDIA GPU here"
            if gpu and torch is None:
                p = bench.peer(["python3", str(tools.REPO / "bench" / "pytorch-copies.py")], f"r{r}-pytorch")
                try:
                    d = json.loads(p.text().strip().splitlines()[-1])
                except (ValueError, IndexError):
                    d = {}
                for key, _, field in PAIRS[2:]:
                    rows[key].peers.append(d.get(field))
                    if field not in d:
                        rows[key].peer_missing = p.why() if not p.ok else "no JSON line"
            else:
                for key, _, _ in PAIRS[2:]:
                    rows[key].peer_missing = torch_why
        bench.notes.append("nvbandwidth times its copies with CUDA events behind a spin kernel, as hostside does; "
                           "PyTorch's figure is the wall clock around 10 synchronous 256 MiB copies")
        return list(rows.values())


def _gpu():
    if shutil.which("nvidia-smi") is None:
        return None
    p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return p.stdout.strip().splitlines()[0] if p.returncode == 0 and p.stdout.strip() else None


def _torch():
    """None where python3 imports torch with CUDA, else why not."""
    p = subprocess.run(["python3", "-c", "import torch; assert torch.cuda.is_available(), 'CUDA is not available to torch'"],
                       capture_output=True, text=True)
    return None if p.returncode == 0 else "python3 cannot use torch with CUDA here (" + (p.stderr.strip().splitlines() or ["?"])[-1][:80] + ")"
