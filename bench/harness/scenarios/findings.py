"""Scenarios that are a script of bench/scenarios/: a device run that prints what each drill
concludes (findings), or a comparison whose output is its own (not the ratio table). The script
gets hostside as $HOSTSIDE (a command line), the peers as $HOSTSIDE_PEERS and its folder as $OUT."""
import os
import shlex
import subprocess
import sys

from harness import tools
from harness.scenario import Scenario


class Script(Scenario):
    order = "the script's own"

    def __init__(self, name, script, prints, runner="bash"):
        self.name, self.script, self.prints, self.runner = name, script, "[script] " + prints, runner

    def add_options(self, p):
        p.add_argument("args", nargs="*", help=f"passed on to bench/scenarios/{self.script}")

    def rows(self, bench):
        env = dict(os.environ, HOSTSIDE=shlex.join(bench.hostside.argv), OUT=str(bench.out))
        sys.stdout.flush()
        p = subprocess.run([self.runner, str(tools.REPO / "bench" / "scenarios" / self.script), *bench.options.args],
                           env=env, cwd=tools.REPO)
        if p.returncode != 0:
            print(f"bench/scenarios/{self.script}: exit {p.returncode}")
        return None


SCRIPTS = [
    Script("findings", "findings.sh", "the current device run (about 3 min on the GPU VM): rules, machine's findings, report --quick quiet "
           "and under a hog on every CPU, compare of the two, syscalls per CUDA launch, pin_memory against RLIMIT_MEMLOCK, "
           "checklist of a PyTorch job, rack, the course; findings by rule ID"),
    Script("safety", "safety.sh", "README's safety promises checked from outside, as root: live reads, outputs refused, "
           "snapshot read back, the launcher under ulimit -v, FIFOs and devices in a recording"),
    Script("checklist", "checklist.sh", "hostside checklist beside pidstat, mpstat, iostat and vmstat on one loaded process, "
           "same seconds, with ratios [SECONDS] [DIR]"),
    Script("container", "container.sh", "hostside container and io --no-measure beside the classic tools, as the machine is "
           "or --shaped (a docker-like cgroup and namespaces) [--shaped] [DIR]"),
    Script("dataloader", "dataloader.sh", "the DataLoader copy-on-write peak RSS beside GNU time -v (or wait4) [SIZE] [WORKERS]"),
    Script("io-causes", "io-causes.sh", "why io's sequential and warm figures differed from fio's jobs, one probe per cause (fio and"
           " bench/c/layout_read.c, about 90 s on the GPU VM): readahead, max_segments, free page reporting, buffer layouts, fio's own"
           " cost per cached read, cold reads and writes by what the memory they fill held before [DIR]"),
    Script("faults", "faults.sh", "hostside vm's fault counts beside the kernel's (GNU time -v), differential [--dir DIR] [--size 512M]"),
    Script("noise", "noise.sh", "on a machine with one CPU hog, whether the verdicts of vm, cpu and io hold from run to run, "
           "and hostside's load beside vmstat's [ROUNDS]"),
    Script("multigpu", "multigpu.sh", "every GPU and GPU pair: nvidia-smi topo, hostside's all-GPU and peer cases, "
           "nvbandwidth's (multigpu-table.py sets them side by side) and PyTorch's peer access"),
    Script("health", "health.sh", "hostside health beside nvidia-smi -q field by field, interleaved, with both programs' wall time; "
           "a snapshot of the node replayed under --root; the line and prometheus formats [ROUNDS]"),
    Script("startup-flags", "startup-flags.sh", "which JVM flag sets shorten `machine --json`, each with its own AOT cache "
           "(needs a JDK and the checkout's jar) [ROUNDS]"),
    Script("minute", "minute.sh", "the report's own bars in one device call: a quick report's stderr stamped, the launch "
           "conditions under the JIT's log, report-costs before and after (with a before-bundle), then report-peers rounds in "
           "the time left [SECONDS [BEFORE-BUNDLE]]"),
    Script("compare-memory", "compare-memory.sh", "peak RSS and wall time of `compare` on a fleet of large reports, "
           "two jars (needs a JDK) BEFORE.jar AFTER.jar [N] [SAMPLES]"),
]
