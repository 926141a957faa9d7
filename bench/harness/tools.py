"""Where hostside, its peers and the C probes come from, and how one run of any of them is kept:
its output in a file of the scenario's folder, its wall time and peak RSS, the load before it."""
import atexit
import os
import shlex
import shutil
import signal
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class RunResult:
    """One command run to its end: exit status, output files, wall seconds, peak RSS in KiB."""
    rc: int
    out: Path
    err: Path
    wall_s: float
    maxrss_kib: int

    @property
    def ok(self):
        return self.rc == 0

    def text(self):
        return self.out.read_text(errors="replace")

    def why(self):
        """The failure in one line: the exit status and the last line of stderr."""
        tail = [l for l in self.err.read_text(errors="replace").splitlines() if l.strip()][-1:] or [""]
        return f"exit {self.rc}: {tail[0][:120]} ({self.err.name})"


def run(argv, out_dir, name, env=None, timeout=None):
    """Runs argv (env: variables to set, None to unset) with stdout and stderr into out_dir/name.out and .err. wait4's rusage gives the peak
    RSS, as GNU time -v reads it (ru_maxrss: the largest of the process and its waited-for children)."""
    out, err = out_dir / f"{name}.out", out_dir / f"{name}.err"
    (out_dir / f"{name}.load").write_text(Path("/proc/loadavg").read_text())
    full_env = dict(os.environ)
    for k, v in (env or {}).items():  # None: the variable unset
        full_env.pop(k, None) if v is None else full_env.__setitem__(k, v)
    start = time.monotonic()
    with open(out, "wb") as o, open(err, "wb") as e:
        try:
            p = subprocess.Popen(argv, stdout=o, stderr=e, env=full_env, start_new_session=True)
        except OSError as x:
            e.write(f"cannot start {argv[0]}: {x}\n".encode())
            return RunResult(127, out, err, 0.0, 0)
        try:
            _, status, usage = _wait4(p, timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, status, usage = os.wait4(p.pid, 0)
            e.write(f"killed after {timeout} s\n".encode())
        finally:
            p.returncode = 0  # reaped by wait4 above: Popen must not wait again
    rc = os.waitstatus_to_exitcode(status)
    return RunResult(rc, out, err, time.monotonic() - start, usage.ru_maxrss)


def _wait4(p, timeout):
    if timeout is None:
        return os.wait4(p.pid, 0)
    end = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            return pid, status, usage
        if time.monotonic() > end:
            raise subprocess.TimeoutExpired(p.args, timeout)
        time.sleep(0.05)


class Hostside:
    """The command that runs hostside: $HOSTSIDE (a command line), else the launcher of the bundle
    $BUNDLE (unpacked into a folder removed at exit: the GPU machine has no Java), else ./hostside."""

    def __init__(self, bundle=None, runtime_from=None):
        """bundle: a `hostside bundle` tarball to run instead of what the environment names
        (report-costs --before: an older build beside the current one). A thin one, without
        hostside/runtime/ (the Java runtime is most of a bundle, and the device tool carries 64 MiB
        in all), runs on the runtime of runtime_from, a Hostside that is a bundle's launcher."""
        if bundle is None and os.environ.get("HOSTSIDE"):
            self.argv = shlex.split(os.environ["HOSTSIDE"])
            self.origin = "$HOSTSIDE"
        elif bundle is not None or os.environ.get("BUNDLE"):
            bundle = Path(bundle or os.environ["BUNDLE"]).resolve()
            home = Path(tempfile.mkdtemp(prefix="bench-bundle-"))
            atexit.register(shutil.rmtree, home, True)
            with tarfile.open(bundle) as t:
                t.extractall(home, filter="tar")
            self.argv = [str(home / "hostside" / "hostside")]
            self.origin = f"bundle {bundle}"
            runtime = home / "hostside" / "runtime"
            if not runtime.exists() and runtime_from is not None and (Path(runtime_from.argv[0]).parent / "runtime").is_dir():
                runtime.symlink_to(Path(runtime_from.argv[0]).parent / "runtime")
                self.origin += f" on the runtime of {runtime_from.origin}"
        else:
            self.argv = [str(REPO / "hostside")]
            self.origin = "./hostside"

    def __call__(self, *args):
        return self.argv + [str(a) for a in args]

    def version(self):
        try:
            p = subprocess.run(self("--version"), capture_output=True, text=True, timeout=300)
            return (p.stdout.strip() or p.stderr.strip()).splitlines()[0] if p.returncode == 0 else f"does not start ({p.stderr.strip()[:100]})"
        except (OSError, IndexError, subprocess.TimeoutExpired) as x:
            return f"does not start ({x})"


class Peers:
    """The established tools, from $HOSTSIDE_PEERS: a folder with bin/ and lib/ as
    shared/tools/peers/README.md describes it (nothing outside the checkout is assumed)."""

    def __init__(self):
        given = os.environ.get("HOSTSIDE_PEERS", "")
        self.folder = Path(given).resolve() if given else None

    def find(self, name):
        """(argv prefix, None) for bin/NAME, or (None, why it is not here)."""
        if self.folder is None:
            return None, f"HOSTSIDE_PEERS is not set (no {name})"
        path = self.folder / "bin" / name
        if not os.access(path, os.X_OK):
            return None, f"no bin/{name} in {self.folder}"
        return [str(path)], None

    def loader(self, argv):
        """argv under the peers' own glibc (lib/glibc), for a dynamic binary that a machine with an
        older glibc refuses to start; the NVIDIA libraries from the usual driver folder."""
        lib = self.folder / "lib"
        return [str(lib / "glibc" / "ld-linux-x86-64.so.2"), "--library-path",
                f"{lib / 'glibc'}:{lib}:/usr/local/nvidia/lib64"] + argv


def run_peer(peers, argv, out_dir, name, env=None, timeout=None):
    """Runs a peer's binary; where the loader could not start it (a glibc too old, a library
    missing), once more under the peers' own glibc."""
    r = run(argv, out_dir, name, env, timeout)
    if r.rc != 0 and peers.folder is not None:
        err = r.err.read_text(errors="replace")
        if "error while loading shared libraries" in err or "GLIBC_" in err:
            r = run(peers.loader(argv), out_dir, name, env, timeout)
    return r


class Probes:
    """The C probes of bench/c, built with gcc into the scenario's folder, once a run."""

    FLAGS = {"refs": (["-static"], ["-lpthread"]), "memref": (["-fopenmp", "-static"], []),
             "odirect_buffer": ([], [])}

    def __init__(self, out_dir):
        self.dir = out_dir / "probes"
        self.built = {}

    def build(self, name):
        """(path, how it was built) or (None, why not)."""
        if name in self.built:
            return self.built[name]
        if shutil.which("gcc") is None:
            self.built[name] = (None, f"no gcc to build bench/c/{name}.c")
            return self.built[name]
        self.dir.mkdir(parents=True, exist_ok=True)
        before, after = self.FLAGS[name]
        source, exe = REPO / "bench" / "c" / f"{name}.c", self.dir / name
        why = ""
        # static first (as the peers' builds are); dynamic where the static libraries are missing
        for flags in (before, [f for f in before if f != "-static"]):
            cmd = ["gcc", "-O2", "-Wall", *flags, "-o", str(exe), str(source), *after]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode == 0:
                self.built[name] = ([str(exe)], " ".join(["gcc -O2", *flags, *after]))
                return self.built[name]
            why = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"gcc exit {p.returncode}"
        self.built[name] = (None, f"bench/c/{name}.c does not build: {why}")
        return self.built[name]


def reference(probes, peers, name):
    """A C reference: built from bench/c (the source the build checks), else the peers' binary."""
    argv, how = probes.build(name)
    if argv:
        return argv, f"bench/c/{name}.c ({how})"
    argv, why = peers.find(name)
    return (argv, f"{argv[0]} (HOSTSIDE_PEERS)") if argv else (None, f"{how}; {why}")


def allowed_cpus():
    return sorted(os.sched_getaffinity(0))


class Hogs:
    """CPU hogs in a session of their own, so that one signal ends them and their children."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(1)  # every hog spinning before the measurement starts

    def stop(self):
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
