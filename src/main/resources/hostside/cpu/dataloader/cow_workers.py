#!/usr/bin/env python3
"""Copy-on-write growth of fork()ed DataLoader-style workers, for hostside to measure.

The parent builds a dataset held one of two ways, then forks workers (os.fork, the DataLoader
default on Linux) that each go over every item, the way a Dataset's __getitem__ would:

  list   a Python list of (int, float) tuples: reading an item updates its reference count,
         a write into the object's page, so each worker ends up copying every object page
  array  one numpy array of shape (items, 2), float64: workers read its buffer, write nothing

Progress is written to stdout as JSON lines: start, built, forked, ready (one per worker), pass
(per worker and pass), finished (per worker), done. Unless --standalone, the parent waits for one
command line on stdin before each step ("build", "fork", "go", "exit") so that a sampler can read
/proc/PID/smaps_rollup at the right moments.

One dataset per interpreter (--data; "none" for none): what main did before would be in the next
dataset's figures (a list served before an array in one interpreter added 2-4 copied pages to
each array worker, 2026-12-07). After its dataset, or instead of one, the same interpreter runs
fork_vs_spawn.py's part on "torch TRIES CHILD_SECONDS MAX_SECONDS" (its figure is the start of
spawned children, fresh interpreters whatever their parent did before) and ends; stdin closing
ends it too. For --data array numpy is imported before "start" (the sampler's first look must
include it); where it does not import, the first line is "unavailable" with the reason, and the
parent waits for the torch part or the end.

Bounded: the dataset, and the wait for the torch part, each end after --max-seconds; the workers
die with the parent (PR_SET_PDEATHSIG), and the parent ends when its stdin closes or its own
parent goes away. python3 only; numpy is needed for --data array alone.
"""
import argparse
import json
import os
import select
import signal
import sys
import time

from hostside_child import die_with_hostside, set_pdeathsig

PER_ITEM_GUESS = 64 + 32 + 32 + 8  # tuple, int, float (pymalloc sizes), list slot


class Stop(Exception):
    """The run must end now: deadline passed, or whoever started us went away."""


def emit(event, **fields):
    fields = {"event": event, "t": round(time.monotonic(), 6), **fields}
    try:
        os.write(1, (json.dumps(fields) + "\n").encode())  # one write: lines from several processes never mix
    except (BrokenPipeError, OSError):
        os._exit(1)  # nobody reads us any more


def round16(n):
    return (n + 15) // 16 * 16


def build(kind, target_bytes):
    items = max(1, target_bytes // PER_ITEM_GUESS)
    if kind == "list":
        import gc
        gc.disable()  # a faster build; the workers run with gc on, as a DataLoader does
        data = [(i, float(i)) for i in range(items)]
        gc.enable()
        estimate = sys.getsizeof(data) + items * (round16(sys.getsizeof((0, 0.0)))
                                                  + round16(sys.getsizeof(items)) + round16(sys.getsizeof(0.5)))
    else:
        import numpy as np
        data = np.arange(2 * items, dtype=np.float64).reshape(items, 2)  # one allocation, no temporary
        estimate = data.nbytes
    return data, items, estimate


def small_like(kind):
    """A few items of the same kind, for a warm-up pass that runs the same code without touching the dataset."""
    if kind == "list":
        return [(i, float(i)) for i in range(1000)]
    import numpy as np
    return np.zeros((1000, 2), dtype=np.float64)


def one_pass(data, seconds):
    """Every item once, as __getitem__ would: data[i], then use the fields. Spread over `seconds` at least."""
    n = len(data)
    slices = 20
    step = max(1, -(-n // slices))
    chunks = -(-n // step)
    t0 = time.monotonic()
    s = 0.0
    for k in range(chunks):
        for i in range(k * step, min(n, (k + 1) * step)):
            x = data[i]
            s += x[0] + x[1]
        wait = t0 + seconds * (k + 1) / chunks - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    return s


def wait_eof(fd, deadline, parent):
    """Block until the pipe's write end is closed everywhere (that is the signal), polling for the deadline and the parent."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Stop("deadline")
        r, _, _ = select.select([fd], [], [], min(left, 0.25))
        if os.getppid() != parent:
            raise Stop("parent gone")
        if r and not os.read(fd, 64):
            return


class Commands:
    """Lines on stdin, read without Python's buffering so that select() stays honest."""

    def __init__(self, standalone, deadline):
        self.standalone = standalone
        self.deadline = deadline
        self.parent = os.getppid()
        self.buf = b""
        self.workers = []  # pids to watch while waiting: one that exits early ends the run

    def check_workers(self):
        while self.workers:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not pid:
                return
            if pid in self.workers:
                self.workers.remove(pid)
                raise Stop("worker pid %d exited early (wait status %d)" % (pid, status))

    def next_line(self, waiting_for):
        """The next command line, stripped; Stop at the deadline, when stdin closes or the parent goes."""
        while b"\n" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Stop("deadline waiting for '%s'" % waiting_for)
            r, _, _ = select.select([0], [], [], min(left, 0.1))
            if os.getppid() != self.parent:
                raise Stop("parent gone")
            self.check_workers()
            if r:
                chunk = os.read(0, 4096)
                if not chunk:
                    raise Stop("stdin closed")
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace").strip()

    def expect(self, word):
        if self.standalone:
            return
        got = self.next_line(word)
        if got != word:
            raise Stop("expected '%s', got '%s'" % (word, got))


def worker(i, kind, data, args, deadline, go_r, exit_r, parent):
    code = 0
    try:
        set_pdeathsig()
        if os.getppid() != parent:
            os._exit(1)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        one_pass(small_like(kind), 0)  # warm-up on other data: the interpreter's own first-run writes happen now
        emit("ready", worker=i, pid=os.getpid())
        wait_eof(go_r, deadline, parent)
        for k in range(args.passes):
            t0 = time.monotonic()
            one_pass(data, args.pass_ms / 1000.0)
            emit("pass", worker=i, pid=os.getpid(), **{"pass": k + 1, "seconds": round(time.monotonic() - t0, 4)})
        emit("finished", worker=i, pid=os.getpid())
        if not args.standalone:
            wait_eof(exit_r, deadline, parent)  # stay alive, and mapped, until the sampler has had its last look
    except Stop:
        code = 2
    except BaseException as e:
        emit("error", reason="worker %d: %s: %s" % (i, type(e).__name__, e))
        code = 3
    os._exit(code)


def import_numpy():
    """None when numpy imports here, else why not (the words hostside shows)."""
    try:
        import numpy  # noqa: F401
    except ModuleNotFoundError as e:
        if e.name == "numpy":
            return "numpy not installed (pip install numpy)"
        return "numpy does not import: %s: %s" % (type(e).__name__, e)
    except Exception as e:
        return "numpy does not import: %s: %s" % (type(e).__name__, str(e).strip().split("\n")[0])
    return None


def run_dataset(kind, args, cmd):
    """The dataset, build to exit, with its workers; returns the status ("ok" or why not). The
    dataset is freed on return: a torch part after it need not fork with it."""
    workers = []
    go_w = exit_w = None
    status = "ok"
    try:
        cmd.expect("build")
        t0 = time.monotonic()
        data, items, estimate = build(kind, args.bytes)
        emit("built", items=items, estimate_bytes=estimate, seconds=round(time.monotonic() - t0, 4))
        cmd.expect("fork")
        go_r, go_w = os.pipe()
        exit_r, exit_w = os.pipe()
        me = os.getpid()
        for i in range(args.workers):
            pid = os.fork()
            if pid == 0:
                os.close(go_w)
                os.close(exit_w)
                worker(i, kind, data, args, cmd.deadline, go_r, exit_r, me)
            workers.append(pid)
        os.close(go_r)
        os.close(exit_r)
        cmd.workers = workers
        emit("forked", workers=workers)
        cmd.expect("go")
        os.close(go_w)
        go_w = None
        if args.standalone:
            while workers and time.monotonic() < cmd.deadline:
                pid, _ = os.waitpid(-1, 0)
                workers.remove(pid)
        else:
            cmd.expect("exit")
        os.close(exit_w)
        exit_w = None
        end = min(cmd.deadline, time.monotonic() + 5)
        while workers and time.monotonic() < end:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                workers.remove(pid)
            else:
                time.sleep(0.01)
        if workers:
            status = "workers killed at the deadline"
    except Stop as e:
        status = "stopped: %s" % e
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass
        for fd in (go_w, exit_w):
            if fd is not None:
                os.close(fd)
        cmd.workers = []
    return status


def torch_part(args, cmd):
    """Waits for "torch TRIES CHILD_SECONDS MAX_SECONDS" and runs fork_vs_spawn's part, or ends
    when stdin closes; returns the exit status."""
    cmd.deadline = time.monotonic() + args.max_seconds
    try:
        line = cmd.next_line("torch")
    except Stop:
        return 0
    words = line.split()
    if len(words) != 4 or words[0] != "torch":
        emit("done", part="torch", status="stopped: expected 'torch TRIES CHILD_SECONDS MAX_SECONDS', got '%s'" % line)
        return 2
    import fork_vs_spawn
    rc = fork_vs_spawn.run(int(words[1]), float(words[2]), float(words[3]))
    emit("done", part="torch", status="ok" if rc == 0 else "ended with %d" % rc)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", choices=["list", "array", "none"], default="list")
    p.add_argument("--bytes", type=int, default=256 << 20, help="size of the list dataset (the array holds as many items)")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--pass-ms", type=int, default=500, help="each pass takes at least this long")
    p.add_argument("--max-seconds", type=float, default=120.0, help="the most the dataset, or the wait for the torch part, may take")
    p.add_argument("--standalone", action="store_true", help="run the dataset through without waiting for commands on stdin, then end")
    args = p.parse_args()
    die_with_hostside()
    if args.bytes < 1 or args.workers < 1 or args.passes < 1 or args.max_seconds <= 0:
        p.error("--bytes, --workers, --passes and --max-seconds must be positive")

    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(Stop("SIGTERM")))
    signal.signal(signal.SIGINT, lambda *_: (_ for _ in ()).throw(Stop("SIGINT")))
    cmd = Commands(args.standalone, time.monotonic() + args.max_seconds)
    if args.data == "array":
        why = import_numpy()
        if why:
            if args.standalone:
                emit("error", reason=why)
                return 3
            emit("unavailable", data=args.data, reason=why)
            return torch_part(args, cmd)
    emit("start", pid=os.getpid(), data=args.data, python=sys.version.split()[0])
    if args.data != "none":
        status = run_dataset(args.data, args, cmd)
        emit("done", data=args.data, status=status)
        if args.standalone or status != "ok":
            return 0 if status == "ok" else 2
    return torch_part(args, cmd)


if __name__ == "__main__":
    sys.exit(main())
