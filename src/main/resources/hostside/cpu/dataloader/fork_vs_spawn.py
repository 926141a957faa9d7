#!/usr/bin/env python3
"""Fork vs spawn once CUDA is initialised: what a DataLoader worker can and cannot do.

The parent initialises CUDA (a tensor on the GPU), then starts children through multiprocessing:
  fork      a forked child touches CUDA: expected to fail with
            "RuntimeError: Cannot re-initialize CUDA in forked subprocess"
  fork_cpu  a forked child does CPU tensor work: fine (fork itself is not the problem)
  spawn     --tries spawned children (fresh interpreters), started together as a DataLoader starts
            its workers, each importing torch and touching CUDA: works; each timed from its own
            Process.start() to its having imported torch, and to its first CUDA result
Results are JSON lines on stdout, the first saying whether torch imports and sees a GPU (the
"probe" event; --probe says only that). hostside runs run() inside cow_workers.py's interpreter
(its "torch" command), after a copy-on-write dataset or instead of one: one interpreter fewer.

What the spawn figure must include, and does: a spawned child is a fresh interpreter that pays
its own `import torch` (that is the figure: a DataLoader worker started with spawn pays it), from
Process.start() in the parent, which has CUDA initialised, to torch imported in the child.
Nothing is imported for it beforehand (no forkserver, no preloading), whatever the parent did
before. The children start one right after another without waiting, as
torch.utils.data.DataLoader's _MultiProcessingDataLoaderIter starts its workers (a loop of
w.start()): each pays its import beside the others, as a spawned worker of a DataLoader does.
Every child is bounded in time, dies with its parent (PR_SET_PDEATHSIG), and the whole run ends
after --max-seconds.
"""
import argparse
import json
import os
import signal
import sys
import time

from hostside_child import die_with_hostside, set_pdeathsig


def emit(event, **fields):
    try:
        os.write(1, (json.dumps({"event": event, **fields}) + "\n").encode())
    except OSError:
        os._exit(1)


def error_text(e):
    return "%s: %s" % (type(e).__name__, str(e).strip().split("\n")[0])


def probe():
    """Emits whether torch imports and sees a GPU (the "probe" event); returns torch when it does, else None."""
    try:
        import torch
    except Exception as e:
        emit("probe", torch=False, error=error_text(e))
        return None
    try:
        available = bool(torch.cuda.is_available())
        count = torch.cuda.device_count() if available else 0
    except Exception as e:
        emit("probe", torch=True, version=torch.__version__, cuda_build=torch.version.cuda, available=False, count=0,
             error=error_text(e))
        return None
    emit("probe", torch=True, version=torch.__version__, cuda_build=torch.version.cuda, available=available, count=count)
    return torch if available and count > 0 else None


def child_cuda(conn, parent):
    """Runs in the child: import torch, put a tensor on the GPU, say how it went and when."""
    set_pdeathsig()
    if os.getppid() != parent:
        os._exit(1)
    entered = time.monotonic()
    try:
        import torch
        imported = time.monotonic()
        x = torch.ones(16, device="cuda")
        value = float(x.sum().item())
        conn.send({"ok": value == 16.0, "entered": entered, "imported": imported, "cuda": time.monotonic()})
    except BaseException as e:
        conn.send({"ok": False, "error": error_text(e), "entered": entered})
    finally:
        conn.close()


def child_cpu(conn, parent):
    set_pdeathsig()
    try:
        import torch
        conn.send({"ok": float(torch.ones(16).sum().item()) == 16.0})
    except BaseException as e:
        conn.send({"ok": False, "error": error_text(e)})
    finally:
        conn.close()


def one_child(ctx, target, timeout):
    """Starts one child, waits (bounded) for its message; returns (message, time.monotonic() at its start)."""
    return children(ctx, target, 1, timeout)[0]


def children(ctx, target, n, timeout):
    """Starts n children one right after another, without waiting between them, then waits for each
    one's message, all within timeout of the first start; returns [(message, time.monotonic() at its
    start)] in start order. A child without an answer in time is killed and says so."""
    started = []
    for _ in range(n):
        recv, send = ctx.Pipe(duplex=False)
        p = ctx.Process(target=target, args=(send, os.getpid()), daemon=True)
        t0 = time.monotonic()
        p.start()
        send.close()
        started.append((p, recv, t0))
    deadline = started[0][2] + timeout
    out = []
    for p, recv, t0 in started:
        msg = None
        try:
            if recv.poll(max(0.0, deadline - time.monotonic())):
                msg = recv.recv()
        except (EOFError, OSError):
            msg = None
        out.append([p, msg, t0])
    for entry in out:
        p = entry[0]
        p.join(max(0.0, min(5.0, deadline - time.monotonic())))
        if p.is_alive():
            p.kill()
            p.join(5)
        if entry[1] is None:
            entry[1] = {"ok": False, "error": "no answer within %.0f s (exit code %s)" % (timeout, p.exitcode)}
    return [(msg, t0) for _, msg, t0 in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--probe", action="store_true")
    ap.add_argument("--tries", type=int, default=3)
    ap.add_argument("--child-seconds", type=float, default=60.0, help="the most one child may take")
    ap.add_argument("--max-seconds", type=float, default=300.0)
    args = ap.parse_args()
    die_with_hostside()
    if args.probe:
        probe()
        return 0
    rc = run(args.tries, args.child_seconds, args.max_seconds)
    if rc == 0:
        emit("done")
    return rc


def run(tries, child_seconds, max_seconds):
    """The probe, CUDA in the parent, the fork children, `tries` spawn children, as events; 0 when
    it got as far as the spawns, 3 when torch or its GPU is missing. Bounded by max_seconds."""
    signal.signal(signal.SIGALRM, lambda *_: os._exit(124))
    signal.alarm(max(1, int(max_seconds)))  # the whole run, whatever happens
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # daemon children are killed at exit
    import multiprocessing as mp
    # the run says first what --probe says, so that hostside needs no second interpreter to ask
    torch = probe()
    if torch is None:
        return 3
    t0 = time.monotonic()
    x = torch.ones(16, device="cuda")
    torch.cuda.synchronize()
    emit("parent", pid=os.getpid(), torch=torch.__version__, cuda=torch.version.cuda, device=torch.cuda.get_device_name(0),
         cuda_init_seconds=round(time.monotonic() - t0, 4), value=float(x.sum().item()))

    fork = mp.get_context("fork")
    msg, _ = one_child(fork, child_cuda, child_seconds)
    emit("fork", ok=bool(msg.get("ok")), error=msg.get("error", ""))
    msg, _ = one_child(fork, child_cpu, child_seconds)
    emit("fork_cpu", ok=bool(msg.get("ok")), error=msg.get("error", ""))

    spawn = mp.get_context("spawn")
    for k, (msg, started) in enumerate(children(spawn, child_cuda, tries, child_seconds)):
        out = {"try": k + 1, "ok": bool(msg.get("ok")), "error": msg.get("error", "")}
        if "imported" in msg:
            out["start_seconds"] = round(msg["imported"] - started, 4)  # a fresh interpreter, main re-imported, torch imported
        if "cuda" in msg:
            out["cuda_seconds"] = round(msg["cuda"] - msg["imported"], 4)  # its own CUDA context and first kernel
        emit("spawn", **out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
