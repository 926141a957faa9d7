"""Every figure of hostside io beside the very fio job hostside names for it (each figure's anchor:
`fio --rw=... --size=... --runtime=...`), on one folder, figure by figure."""
import json
import os
import re
import shlex
from pathlib import Path

from harness.scenario import Scenario, document
from harness.table import Row

KEYS = ["seq_read_cold_qd1", "seq_read_warm_qd1", "seq_read_direct_qd1", "seq_read_direct_uring_qd32", "rand_read_cold_qd1",
        "rand_read_warm_qd1", "rand_read_direct_qd1", "rand_read_direct_uring_qd1", "rand_read_direct_uring_qd32",
        "write_buffered", "write_fsync"]


class Io(Scenario):
    name = "io"
    prints = ("each `hostside io` figure (GB/s or IOPS) beside the fio job hostside names for it in the figure's anchor, "
              "run on the same folder and file size")
    order = ("for each figure: hostside, then the fio job its JSON names (fio's job is read from hostside's output); each side's"
             " figure over all its samples together, as fio counts")

    def add_options(self, p):
        p.add_argument("--dir", default="/var/tmp", help="folder for both tools' files (default /var/tmp)")
        p.add_argument("--size", default="2G", help="hostside's --size (default 2G); fio's job carries the same")
        p.add_argument("--sample-ms", type=int, default=1000, help="hostside's --sample-ms (default 1000)")
        p.add_argument("--keys", default=",".join(KEYS), help="comma-separated figures (default: all eleven)")

    def rows(self, bench):
        o = bench.options
        folder = Path(o.dir).resolve()
        fio, missing = bench.peers.find("fio")
        keys = [k for k in o.keys.split(",") if k]
        unknown = [k for k in keys if k not in KEYS]
        if unknown:
            raise SystemExit(f"bench/run io: no such figure {unknown}; the keys are {', '.join(KEYS)}")
        rows = {k: Row(k, "", "fio (the job in hostside's anchor)") for k in keys}
        files = Files(folder)
        try:
            for r in range(1, bench.rounds + 1):
                for key in keys:
                    bench.say(f"round {r}/{bench.rounds}: {key}")
                    row = rows[key]
                    hs = bench.hs(f"r{r}-hostside-{key}", "io", "--only", key, "--dir", folder, "--size", o.size,
                                  "--sample-ms", o.sample_ms, "--json")
                    figure = _figure(hs, key)
                    if figure is None:
                        row.hostside.append(None)
                        row.hostside_missing = hs.why() if not hs.ok else f"no {key} figure (see {hs.out.name})"
                        continue
                    row.unit, row.digits = figure["unit"], (2 if figure["unit"] == "GB/s" else 0)
                    row.hostside.append(overall(document(hs), key, figure["value"]))
                    if fio is None:
                        row.peer_missing = missing
                        continue
                    job = shlex.split(figure["anchor"] or "")
                    if job[:1] != ["fio"]:
                        row.peer_missing = f"hostside names no fio job for {key}"
                        continue
                    row.peers.append(self._fio(bench, fio, files, r, key, job[1:], figure["unit"], row))
        finally:
            files.remove()
        bench.notes.append("each side's figure is its bytes or requests over its time, all samples together (hostside's detail.overall,"
                           " fio's bw_bytes or iops); fio's reads run on a file fio lays out anew before each job, as hostside writes"
                           " its test file at each run (on a VM a file just written may still be in the host's cache, and the pages a"
                           " read fills are those just freed); before a warm job its pages are dropped and it is read once in order,"
                           " as hostside's warm-up does; the writes go to a new file, after the warm-up job the anchor names")
        return list(rows.values())

    def _fio(self, bench, fio, files, r, key, job, unit, row):
        if not is_write(job):
            why = lay_out(bench, fio, files.read, job_size(job), f"r{r}-fio-layout-{key}")
            if why:
                row.peer_missing = why
                return None
        side, why = run_job(bench, fio, files, key, job, f"r{r}-fio-{key}")
        if side is None:
            row.peer_missing = why
            return None
        return side["bw_bytes"] / 1e9 if unit == "GB/s" else side["iops"]


def option(job, name):
    """The value a fio job gives option NAME (--NAME=VALUE), or None."""
    return next((a.split("=", 1)[1] for a in job if a.startswith(f"--{name}=")), None)


def job_size(job):
    """The file size a fio job names (--size=BYTES), or None."""
    return option(job, "size")


def is_write(job):
    return any(a.startswith("--rw=") and "write" in a for a in job)


def disk_of(path):
    """The sysfs folder of the whole disk that holds PATH (/sys/block/vda for a file on vda1), or None: st_dev's
    /sys/dev/block/MAJ:MIN, its parent where that is a partition. A device-mapper or md volume is its own disk here:
    its requests are those it was sent, before it splits them for what it stacks on."""
    try:
        st = os.stat(path)
        real = os.path.realpath(f"/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}")
    except OSError:
        return None
    if os.path.exists(os.path.join(real, "partition")):
        real = os.path.dirname(real)
    return real if os.path.exists(os.path.join(real, "stat")) else None


def disk_reads(disk):
    """(reads completed, sectors read) of the disk so far (Documentation/block/stat.rst: fields 1 and 3), or None."""
    try:
        f = Path(disk, "stat").read_text().split()
        return int(f[0]), int(f[2])
    except (OSError, IndexError, ValueError, TypeError):
        return None


def max_segments(disk):
    """The most physical pieces one request of the disk may carry (queue/max_segments), or None."""
    try:
        return int(Path(disk, "queue", "max_segments").read_text())
    except (OSError, ValueError, TypeError):
        return None


def requests_per_read(before, after, block_bytes):
    """How many requests the disk completed for each read of BLOCK_BYTES between two disk_reads: 1.00 where each went
    whole, 2.00 where each was split in two. Every reader of the disk counts; None where nothing was read."""
    if before is None or after is None or not block_bytes:
        return None
    requests, sectors = after[0] - before[0], after[1] - before[1]
    reads = sectors * 512 / block_bytes
    return requests / reads if reads >= 1 else None


def fio_bytes(size):
    """fio's size (a number, or with k, m, g or t: powers of 1024 as fio reads them by default), or None."""
    m = re.fullmatch(r"(\d+)([kmgt]?)i?b?", (size or "").lower())
    return int(m[1]) * 1024 ** " kmgt".index(m[2] or " ") if m else None


def block_bytes(job):
    """A job's --bs in bytes, or None."""
    return fio_bytes(option(job, "bs"))


def lay_out(bench, fio, target, size, name):
    """fio lays out its read file anew at SIZE (as hostside writes its test file at each run, before reading it): None, or why it
    could not. Anew: fio lays out only a missing or short file, and on a VM a file laid out long before reads differently (the
    pages a read fills were freed long before, which a VM may have handed back to its host; the host's cache of the disk)."""
    target.unlink(missing_ok=True)
    lay = bench.peer(fio + ["--name=layout", f"--filename={target}", f"--size={size}", "--rw=read", "--bs=1M",
                            "--io_size=1M", "--output-format=json"], name)
    return None if lay.ok else "fio could not lay out its file: " + lay.why()


def run_job(bench, fio, files, key, job, name):
    """One fio job (its options as hostside's anchor gives them) on files.read, or on a new files.write for a
    write job: (the measured job's "read" or "write" side of fio's JSON, None), or (None, why not). A warm job's
    file (it reads it in first, pre_read) has its pages dropped and is read once in order before, as hostside's
    warm-up leaves the page cache whatever ran before."""
    write = is_write(job)
    target = files.write if write else files.read
    if write:
        files.drop(target)
    elif warm(job):
        _read_in_order(target)
    with HugePages(huge_pages_needed(job)) as short:
        if short:
            return None, short
        p = bench.peer(fio_argv(fio, target, job, key), name)
    if write:
        os.sync()  # hostside flushes each written file outside its timing: the next run gets a quiet disk
        files.drop(target)
    side = measured_side(p.text(), write)
    return (side, None) if side is not None else (None, p.why() if not p.ok else "no job in fio's JSON")


PAGE = os.sysconf("SC_PAGE_SIZE")


def huge_pages_needed(job):
    """The huge pages a --iomem=shmhuge job's buffer takes (0 for any other job): the block times the depth and, with O_DIRECT, a
    page, in whole huge pages of its --hugepage-size, and a page more again as fio 3.42 allocates it, which shmget rounds up to
    another huge page (its --debug=mem: 35655679 bytes for 32 MiB blocks in flight, shmget of 37748736: 18 pages, not 17).
    As FioReadJob.hugePagesNeeded counts them."""
    if option(job, "iomem") != "shmhuge":
        return 0
    page = fio_bytes(option(job, "hugepage-size")) or 2 << 20
    align = PAGE - 1 if option(job, "direct") == "1" else 0
    rounded = -(-((block_bytes(job) or 4096) * int(option(job, "iodepth") or 1) + align) // page) * page
    return -(-(rounded + align) // page)


class HugePages:
    """Huge pages reserved for a job for as long as it runs (vm.nr_hugepages raised by what is missing from the free ones, root's
    to do) and the pool put back as it was after: as `with HugePages(n) as short`, short is None, or why the job cannot run."""

    NR = Path("/proc/sys/vm/nr_hugepages")

    def __init__(self, needed, meminfo=Path("/proc/meminfo")):
        self.needed, self.meminfo, self.before = needed, meminfo, None

    def _free(self):
        m = dict(line.split(":", 1) for line in self.meminfo.read_text().splitlines() if ":" in line)
        return int(m["HugePages_Free"].split()[0])

    def __enter__(self):
        if self.needed <= 0:
            return None
        try:
            free = self._free()
            if free >= self.needed:
                return None
            self.before = int(self.NR.read_text())
            self.NR.write_text(str(self.before + self.needed - free))
            if self._free() >= self.needed:
                return None
            why = f"the kernel reserved {self._free()} free huge pages of the {self.needed} fio's --iomem=shmhuge job needs"
        except (OSError, KeyError, ValueError) as e:
            why = f"fio's --iomem=shmhuge job needs {self.needed} huge pages reserved (vm.nr_hugepages), which could not be: {e}"
        self.__exit__(None, None, None)
        return why

    def __exit__(self, *exc):
        if self.before is not None:
            try:
                self.NR.write_text(str(self.before))
            except OSError:
                pass
            self.before = None
        return False


def overall(doc, key, median):
    """hostside's figure over all its kept samples together (detail.overall), as fio counts its own; the median where absent."""
    r = next((x for x in (doc or {}).get("results", []) if x.get("key") == key), None)
    value = ((r or {}).get("detail") or {}).get("overall")
    return value if value is not None else median


def one_pass(job):
    """Whether the job reads or writes its size once and ends (no --time_based): one sample, where the figure it stands
    beside is a median of several passes."""
    return "--time_based" not in job


def median_run(runs):
    """Of several runs of one job, each (side, why) as run_job gives it: the run of median bandwidth (the lower of the two
    middle ones for an even count), as a median of passes is taken; the first failure where one failed."""
    failed = next((r for r in runs if r[0] is None), None)
    if failed is not None or not runs:
        return failed if failed is not None else (None, "no run")
    ordered = sorted(runs, key=lambda r: r[0].get("bw_bytes") or r[0].get("iops") or 0)
    return ordered[(len(ordered) - 1) // 2]


def warm(job):
    """Whether the job reads a cached file: it reads it in first (pre_read), or, as the anchors of reports before 2026-12-07
    named it, keeps fio from dropping it (invalidate=0) without O_DIRECT. The bench then caches it as hostside's warm-up does."""
    return "--pre_read=1" in job or ("--invalidate=0" in job and "--direct=1" not in job)


def fio_argv(fio, target, job, key):
    """fio's command for the job of an anchor on the bench's file: the file and JSON output apply to every job of it; a job
    that names none is named after the figure (the writes' anchors name a warm-up job and the measured one)."""
    named = any(a.startswith("--name=") for a in job)
    return [*fio, f"--filename={target}", "--output-format=json", *job, *([] if named else [f"--name={key}"])]


def measured_side(text, write):
    """The measured job's "read" or "write" side of fio's JSON: the last job (a warm-up job comes before it); None without one."""
    try:
        return json.loads(text)["jobs"][-1]["write" if write else "read"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def _read_in_order(path):
    """Drops the file's cached pages, then reads it once in 1 MiB reads: the page cache as hostside's warm cases leave it."""
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        while f.read(1 << 20):
            pass


def _figure(result, key):
    d = document(result)
    return next((f for f in (d or {}).get("figures", []) if f["key"] == key), None)


class Files:
    """fio's two files in the folder, removed whatever happens."""

    def __init__(self, folder):
        self.read = folder / f"bench-fio-{os.getpid()}.dat"
        self.write = folder / f"bench-fio-{os.getpid()}-write.dat"

    @staticmethod
    def drop(path):
        path.unlink(missing_ok=True)

    def remove(self):
        self.drop(self.read)
        self.drop(self.write)
