"""Which of the JVM's threads ran while timer_jitter_noisy recorded: /proc/PID/task/*/schedstat (run ns, runnable-wait ns,
slices) and voluntary/involuntary switches, read 0.9 s after the case started (its warm-up over) and 1.2 s later.
Usage: python3 threads.py HOSTSIDE ROUNDS"""
import glob, json, os, subprocess, sys, time

def snap(pid):
    out = {}
    for t in glob.glob(f"/proc/{pid}/task/*"):
        try:
            comm = open(t + "/comm").read().strip()
            run, wait, n = map(int, open(t + "/schedstat").read().split())
            st = dict(l.split(":", 1) for l in open(t + "/status") if ":" in l)
            out[t] = (comm, run, wait, n, int(st["voluntary_ctxt_switches"]), int(st["nonvoluntary_ctxt_switches"]))
        except (OSError, ValueError, KeyError):
            pass
    return out

h, rounds = sys.argv[1], int(sys.argv[2])
for r in range(rounds):
    err = open("/tmp/thr.err", "w+")
    p = subprocess.Popen([h, "cpu", "--only", "timer_jitter_noisy", "--json"], stdout=subprocess.PIPE, stderr=err)
    pid = None
    for _ in range(400):
        time.sleep(0.02)
        err.seek(0)
        if "timer_jitter_noisy: started" in err.read():
            break
    kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    for c in [str(p.pid)] + kids:
        if "java" in open(f"/proc/{c}/comm").read():
            pid = c
    time.sleep(0.9); a = snap(pid); time.sleep(1.2); b = snap(pid)
    out = json.loads(p.communicate()[0])
    print(f"round {r + 1} (pid {pid}):")
    for t, y in sorted(b.items(), key=lambda kv: -(kv[1][1] - a.get(kv[0], kv[1])[1])):
        x = a.get(t)
        if x and y[3] > x[3]:
            print(f"  {y[0]:18s} ran {(y[1] - x[1]) / 1e6:8.2f} ms  runnable-waited {(y[2] - x[2]) / 1e6:8.2f} ms  slices {y[3] - x[3]:6d}  vol {y[4] - x[4]:6d}  invol {y[5] - x[5]:5d}")
    for f in out.get("figures", []):
        if f["key"].startswith("timer_jitter_noisy"):
            print(f"  {f['key']} {f['value']:.2f} {f['unit']}")
