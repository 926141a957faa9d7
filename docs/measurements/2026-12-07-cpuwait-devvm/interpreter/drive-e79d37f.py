"""Drives cow_workers.py of commit e79d37f (one interpreter serving datasets in turn: "prepare
list|array", then build, fork, go, exit) the way CowSampler does, reading smaps_rollup itself:
an array dataset in a fresh interpreter against one after a list in the same interpreter, 4
workers, 2 passes of 300 ms, 256 MiB. Prints the dataset (MiB), each worker's growth (% and
pages). Run beside that commit's cow_workers.py and hostside_child.py."""
import json, subprocess, sys, re, os
def uss(pid):
    t = open(f"/proc/{pid}/smaps_rollup").read()
    g = lambda k: int(re.search(rf"^{k}:\s+(\d+)", t, re.M).group(1))
    return (g("Private_Clean") + g("Private_Dirty")) * 1024
def run(kinds, extra_python=False):
    p = subprocess.Popen([sys.executable, "cow_workers.py", "--workers", "4", "--passes", "2", "--pass-ms", "300"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    backlog = []
    def ev():
        line = p.stdout.readline()
        if not line: raise SystemExit("eof")
        return json.loads(line)
    def until(name):
        for e in backlog:
            if e["event"] == name:
                backlog.remove(e); return e
        while True:
            e = ev()
            if e["event"] == name: return e
            backlog.append(e)
    start = until("start"); main = start["pid"]
    out = []
    for k in kinds:
        backlog.clear()
        p.stdin.write(f"prepare {k}\n"); p.stdin.flush(); until("prepared")
        b = uss(main)
        p.stdin.write("build\n"); p.stdin.flush(); until("built")
        a = uss(main)
        p.stdin.write("fork\n"); p.stdin.flush(); ws = until("forked")["workers"]
        for _ in ws: until("ready")
        first = {w: uss(w) for w in ws}
        p.stdin.write("go\n"); p.stdin.flush()
        for _ in ws: until("finished")
        last = {w: uss(w) for w in ws}
        p.stdin.write("exit\n"); p.stdin.flush(); until("done")
        g = [100 * (last[w] - first[w]) / (a - b) for w in ws]
        out.append((k, round((a - b) / 2**20, 1), [round(x, 3) for x in g], [ (last[w]-first[w])//4096 for w in ws]))
    p.stdin.close(); p.wait()
    return out
if __name__ == "__main__":
  for rep in range(3):
    print("fresh ", run(["array"]))
    print("after ", run(["list", "array"]))
