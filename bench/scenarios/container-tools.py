#!/usr/bin/env python3
"""hostside container and hostside io --no-measure beside the classic tools that read the same facts.

  HOSTSIDE="java -jar target/hostside.jar" JAVA=java python3 bench/scenarios/container-tools.py [DIR]   (bench/run container runs it)

Limits: prlimit (util-linux). CPUs: nproc, and the JDK's own container support
(java -XshowSettings:system: CPU quota and period, effective CPU count, memory limit, process
limit). /dev/shm: df. Capabilities: capsh --has-p. Root file system: findmnt. Namespaces: lsns
against PID 1. Runtime: systemd-detect-virt --container. Storage: lsblk and findmnt -T DIR.
NICs: ip -j link. GPUDirect modules: lsmod. A tool that is not installed is said, not skipped
silently. Prints one table (fact, hostside, tool, the tool's command, agree) and exits 1 if any
fact disagrees.
"""
import json, os, re, shlex, shutil, subprocess, sys

HOSTSIDE = shlex.split(os.environ.get("HOSTSIDE", "./hostside"))
JAVA = os.environ.get("JAVA", "java")
DIR = sys.argv[1] if len(sys.argv) > 1 else "/var/tmp"
rows, missing = [], []


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout + p.stderr
    except FileNotFoundError:
        return None, ""


def have(tool):
    if shutil.which(tool):
        return True
    missing.append(tool)
    return False


def row(fact, ours, theirs, how):
    rows.append((fact, str(ours), str(theirs), how, "yes" if str(ours) == str(theirs) else "NO"))


rc, out = run(HOSTSIDE + ["container", "--json"])
if rc != 0:
    sys.exit(f"hostside container failed ({rc}): {out[:400]}")
c = json.loads(out)["facts"]
rc, out = run(HOSTSIDE + ["io", "--no-measure", "--dir", DIR, "--json"])
if rc != 0:
    sys.exit(f"hostside io failed ({rc}): {out[:400]}")
io = json.loads(out)
io = io.get("facts", io)


def lim(l, soft=True):
    key = "soft" if soft else "hard"
    return "unlimited" if l[key + "Unlimited"] else l[key]


if have("prlimit"):
    # prlimit with no PID reports its own limits, inherited from this shell as hostside's are
    _, out = run(["prlimit", "--raw", "--noheadings", "-o", "RESOURCE,SOFT,HARD"])
    got = {f[0]: f[1:] for f in (l.split() for l in out.splitlines()) if len(f) == 3}
    for res, key in [("MEMLOCK", "memlock"), ("NOFILE", "nofile"), ("STACK", "stack"), ("NPROC", "nproc")]:
        if res in got:
            row(f"{key} soft", lim(c["limits"][key]), got[res][0], "prlimit")
            row(f"{key} hard", lim(c["limits"][key], False), got[res][1], "prlimit")
if have("nproc"):
    row("CPUs this process may run on", c["cpu"]["visibleCpus"], run(["nproc"])[1].strip(), "nproc")
rc, out = run([JAVA, "-XshowSettings:system", "-version"])
if rc is None:
    missing.append(JAVA)
else:
    jdk = dict(re.findall(r"^\s+([A-Z][\w /]+?):\s+(.+)$", out, re.M))
    q = c["cpu"]
    if "CPU Quota" in jdk:
        row("CPU quota (us per period)", q["quotaUs"] if q["quotaUs"] is not None else "unlimited",
            jdk["CPU Quota"].replace("us", "").strip() if "Unlimited" not in jdk["CPU Quota"] else "unlimited", "java -XshowSettings:system")
    if "CPU Period" in jdk and q["periodUs"] is not None:
        row("CPU period (us)", q["periodUs"], jdk["CPU Period"].replace("us", "").strip(), "java -XshowSettings:system")
    if "Effective CPU Count" in jdk:
        import math
        eff = min(q["visibleCpus"], math.ceil(q["quotaCpus"])) if q["quotaCpus"] is not None else q["visibleCpus"]
        row("CPUs a runtime should use (quota rounded up, cpuset)", eff, jdk["Effective CPU Count"], "java -XshowSettings:system")
    if "Memory Limit" in jdk:
        m = c["memory"]["limit"]
        ours = "unlimited" if m["unlimited"] else m["value"]
        v = jdk["Memory Limit"]
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        theirs = "unlimited" if "Unlimited" in v else int(float(v[:-1]) * units[v[-1]]) if v[-1] in units else v
        row("cgroup memory limit (bytes)", ours, theirs, "java -XshowSettings:system")
    if "Maximum Processes Limit" in jdk:
        p = c["pids"]["max"]
        row("cgroup pids limit", "unlimited" if p["unlimited"] else p["value"],
            "unlimited" if "Unlimited" in jdk["Maximum Processes Limit"] else jdk["Maximum Processes Limit"], "java -XshowSettings:system")
    print("# java -XshowSettings:system:\n" + "\n".join("#   " + l for l in out.splitlines() if l.strip()))
if have("df"):
    _, out = run(["df", "-B1", "--output=size,used", "/dev/shm"])
    size, used = out.splitlines()[-1].split()
    row("/dev/shm size (bytes)", c["shm"]["sizeBytes"], size, "df -B1 /dev/shm")
if have("capsh"):
    for cap, key in [("cap_ipc_lock", "ipcLock"), ("cap_sys_nice", "sysNice")]:
        # --has-p: in the permitted set; hostside reads the effective set, the same for root without file caps
        row(f"{cap} held", c["capabilities"][key], run(["capsh", f"--has-p={cap}"])[0] == 0, "capsh --has-p")
if have("findmnt"):
    opts = run(["findmnt", "-no", "OPTIONS", "/"])[1].strip().split(",")
    row("root file system read-only", c["rootFs"]["readOnly"], "ro" in opts, "findmnt -no OPTIONS /")
    row("root file system type", c["rootFs"]["type"], run(["findmnt", "-no", "FSTYPE", "/"])[1].strip(), "findmnt -no FSTYPE /")
if have("lsns"):
    # lsns lists each namespace once, with the lowest PID in it: this process's ns shared with PID 1 when they match
    for ns in c["namespaces"]["list"]:
        name = ns["name"]
        mine = run(["lsns", "-n", "-o", "NS", "-t", name, "-p", str(os.getpid())])[1].strip()
        pid1 = run(["lsns", "-n", "-o", "NS", "-t", name, "-p", "1"])[1].strip()
        theirs = "unknown" if not mine or not pid1 else ("shared" if mine == pid1 else "own")
        ours = ns["relation"].split(":")[0]
        ours = "shared" if ours.startswith("shared") else "own" if ours.startswith("own") else "unknown" if ours.startswith("unknown") else ours
        row(f"{name} namespace against PID 1's", ours, theirs, "lsns -t NS -p PID")
if have("systemd-detect-virt"):
    out = run(["systemd-detect-virt", "--container"])[1].strip()
    row("in a container", c["runtime"]["inContainer"], out != "none", "systemd-detect-virt --container (" + out + ")")

if have("lsblk"):
    got = {d["name"]: d for d in json.loads(run(["lsblk", "-J", "-b", "-d", "-o", "NAME,SIZE,ROTA,SCHED,RA,RQ-SIZE,LOG-SEC,PHY-SEC"])[1])["blockdevices"]}
    for b in io["blockDevices"]:
        d = got.get(b["name"])
        if d is None:
            row(f"{b['name']} listed", True, False, "lsblk -d")
            continue
        row(f"{b['name']} size (bytes)", b["sizeBytes"], d["size"], "lsblk -b -o SIZE")
        row(f"{b['name']} rotational", b["rotational"], d["rota"] in (True, "1", 1), "lsblk -o ROTA")
        row(f"{b['name']} scheduler", b["queue"]["scheduler"], d["sched"], "lsblk -o SCHED")
        row(f"{b['name']} read-ahead (KiB)", b["queue"]["readAheadKb"], d["ra"], "lsblk -o RA")
        row(f"{b['name']} queue depth (nr_requests)", b["queue"]["nrRequests"], d["rq-size"], "lsblk -o RQ-SIZE")
        row(f"{b['name']} logical / physical block", f"{b['queue']['logicalBlockBytes']}/{b['queue']['physicalBlockBytes']}",
            f"{d['log-sec']}/{d['phy-sec']}", "lsblk -o LOG-SEC,PHY-SEC")
if have("findmnt"):
    for dd in io["dataDirs"]:
        if not dd["exists"]:
            continue
        f = json.loads(run(["findmnt", "-J", "-T", dd["path"], "-o", "TARGET,FSTYPE,SOURCE"])[1])["filesystems"][0]
        row(f"{dd['path']} mounted at", dd["filesystem"]["mountPoint"], f["target"], "findmnt -T")
        row(f"{dd['path']} file system", dd["filesystem"]["type"], f["fstype"], "findmnt -T")
        row(f"{dd['path']} source", dd["filesystem"]["source"], f["source"], "findmnt -T")
if have("ip"):
    links = {l["ifname"]: l for l in json.loads(run(["ip", "-j", "link"])[1])}
    for n in io["nics"]:
        l = links.get(n["name"])
        if l:
            row(f"{n['name']} MTU", n["mtu"], l["mtu"], "ip -j link")
            row(f"{n['name']} state", n["operstate"], l["operstate"].lower(), "ip -j link")
if have("lsmod"):
    mods = {l.split()[0] for l in run(["lsmod"])[1].splitlines()[1:] if l.strip()}
    row("nvidia_peermem loaded", io["gpuDirect"]["peermem"], "nvidia_peermem" in mods, "lsmod")
    row("nvidia_fs loaded", io["gpuDirect"]["nvidiaFs"], "nvidia_fs" in mods, "lsmod")

w = [max(len(r[i]) for r in rows + [("fact", "hostside", "tool", "how", "agree")]) for i in range(5)]
for r in [("fact", "hostside", "tool", "how", "agree")] + rows:
    print("  ".join(x.ljust(w[i]) for i, x in enumerate(r)))
bad = [r for r in rows if r[4] == "NO"]
print(f"{len(rows)} facts, {len(rows) - len(bad)} agree" + (f"; not installed here: {', '.join(missing)}" if missing else ""))
sys.exit(1 if bad else 0)
