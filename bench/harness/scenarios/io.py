"""Every figure of hostside io beside the very fio job hostside names for it (each figure's anchor:
`fio --rw=... --size=... --runtime=...`), on one folder, figure by figure."""
import json
import os
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
        files = _Files(folder)
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
        size = next((int(a.split("=", 1)[1]) for a in job if a.startswith("--size=")), None)
        if key.startswith("write_"):
            target = files.write
            files.drop(target)
        else:
            target = files.read
            # anew before every read job: fio lays out only a file that is missing or too small, and a file laid
            # out rounds ago reads differently on a VM (its host's cache, the guest's free memory handed back)
            files.drop(target)
            lay = bench.peer(fio + ["--name=layout", f"--filename={target}", f"--size={size}", "--rw=read", "--bs=1M",
                                    "--io_size=1M", "--output-format=json"], f"r{r}-fio-layout-{key}")
            if not lay.ok:
                row.peer_missing = "fio could not lay out its file: " + lay.why()
                return None
            if warm(job):
                _read_in_order(target)
        p = bench.peer(fio_argv(fio, target, job, key), f"r{r}-fio-{key}")
        if target == files.write:
            os.sync()  # hostside flushes each written file outside its timing: the next run gets a quiet disk
            files.drop(target)
        figure = fio_figure(p.text(), key, unit)
        if figure is None:
            row.peer_missing = p.why() if not p.ok else "no job in fio's JSON"
        return figure


def _figure(result, key):
    d = document(result)
    return next((f for f in (d or {}).get("figures", []) if f["key"] == key), None)


def overall(doc, key, median):
    """hostside's figure over all its kept samples together (detail.overall), as fio counts its own; the median where absent."""
    r = next((x for x in (doc or {}).get("results", []) if x.get("key") == key), None)
    value = ((r or {}).get("detail") or {}).get("overall")
    return value if value is not None else median


def warm(job):
    """Whether the job reads a cached file (it reads it in first, pre_read): the bench then caches it as hostside's warm-up does."""
    return "--pre_read=1" in job


def fio_argv(fio, target, job, key):
    """fio's command for the job of an anchor on the bench's file: the file and JSON output apply to every job of it; a job
    that names none is named after the figure (the writes' anchors name a warm-up job and the measured one)."""
    named = any(a.startswith("--name=") for a in job)
    return [*fio, f"--filename={target}", "--output-format=json", *job, *([] if named else [f"--name={key}"])]


def fio_figure(text, key, unit):
    """fio's overall figure of the measured job, the last of its JSON (a warm-up job comes before it): GB/s or IOPS; None without one."""
    try:
        side = json.loads(text)["jobs"][-1]["write" if key.startswith("write_") else "read"]
        return side["bw_bytes"] / 1e9 if unit == "GB/s" else side["iops"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def _read_in_order(path):
    """Drops the file's cached pages, then reads it once in 1 MiB reads: the page cache as hostside's warm cases leave it."""
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        while f.read(1 << 20):
            pass


class _Files:
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
