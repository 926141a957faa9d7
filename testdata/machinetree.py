"""The machine folders testdata's fixture scripts write, and the tarballs they pack them into:
testdata/rack/make-fixtures.py and testdata/health/make-fixtures.py. Standard library only; the
tarballs are the same bytes on every run (sorted entries, mtime 0, owner root, gzip without a name
or time)."""
import gzip
import io
import os
import tarfile


class Tree:
    """A machine folder being written under `build`; paths are given as on the live machine ("/sys/...")."""

    def __init__(self, build, name):
        self.name = name
        self.root = os.path.join(build, name)
        self.count = 0

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def file(self, path, text=""):
        p = self._p(path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        self.count += 1

    def line(self, path, value):
        """A sysfs/procfs value file: the value and one newline."""
        self.file(path, f"{value}\n")

    def link(self, path, target):
        p = self._p(path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)
        self.count += 1

    def dir(self, path):
        os.makedirs(self._p(path), exist_ok=True)


def pack(t, folder):
    """<machine>.tar.gz in `folder`, from its tree, the same bytes on every run."""
    out = os.path.join(folder, t.name + ".tar.gz")
    entries = []
    for d, dirs, files in os.walk(t.root):
        dirs.sort()
        for n in sorted(dirs + files):
            entries.append(os.path.join(d, n))
    entries.sort()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        top = tarfile.TarInfo(t.name)
        top.type, top.mode, top.mtime = tarfile.DIRTYPE, 0o755, 0
        tar.addfile(top)
        for e in entries:
            info = tar.gettarinfo(e, arcname=os.path.join(t.name, os.path.relpath(e, t.root)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "root", "root"
            info.mode = 0o755 if info.isdir() else 0o777 if info.issym() else 0o644
            if info.isfile():
                with open(e, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    with open(out, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as gz:
        gz.write(buf.getvalue())
    return out
