package hostside.container;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import hostside.container.ContainerFacts.Bound;
import hostside.container.ContainerFacts.Memory;
import hostside.container.ContainerFacts.Pids;
import hostside.fs.FactReads;
import hostside.process.CgroupLayout;
import hostside.process.CgroupLayout.Place;

/**
 * The memory and pids limits of this process's cgroup. A limit set on any ancestor up to the
 * mount point binds too (a pod's limit sits above its containers'), so each level is read and
 * the tightest kept, with the file it came from.
 */
final class CgroupLimits {
    /**
     * cgroup v1 writes "no limit" as the largest page-aligned long (9223372036854771712 with 4 KiB
     * pages, less with 64 KiB ones); nothing real is above 2^62 bytes.
     */
    static final long V1_UNLIMITED = 1L << 62;

    private final FactReads reads;

    CgroupLimits(FactReads reads) {
        this.reads = reads;
    }

    // ---- memory ----

    Memory memory(Place p, Long memTotal) {
        if (p == null || p.dir() == null) {
            Bound u = Bound.unknown(p == null ? "no memory controller" : p.why());
            return new Memory(u, null, u, u, null, null, null, memTotal);
        }
        boolean v2 = p.version().equals("v2");
        String limitFile = v2 ? "memory.max" : "memory.limit_in_bytes";
        String useFile = v2 ? "memory.current" : "memory.usage_in_bytes";
        Bound limit = tightest(p, limitFile, v2);
        String levelOfLimit = limit.limited() ? limit.source().substring(0, limit.source().lastIndexOf('/')) : p.dir();
        // The root of a whole hierarchy has no memory.current (v2) or pids.current: only a child's use is expected.
        Long current = reads.number(levelOfLimit + "/" + useFile, levelOfLimit.equals(p.dir()) && !p.dir().equals(p.top()));
        if (v2) {
            Bound high = tightest(p, "memory.high", true);
            Bound swap = tightest(p, "memory.swap.max", true);
            Map<String, Long> events = keyed(p.dir() + "/memory.events");
            return new Memory(limit, current, high, swap, events.get("oom_kill"), events.get("max"), events.get("high"), memTotal);
        }
        Bound swap = v1Swap(p, limit);
        Long oomKills = keyed(p.dir() + "/memory.oom_control").get("oom_kill");
        Long failcnt = reads.number(p.dir() + "/memory.failcnt", false);
        return new Memory(limit, current, null, swap, oomKills, failcnt, null, memTotal);
    }

    /** v1 limits memory and memory+swap (memsw, present only with swap accounting on); swap is the difference. */
    private Bound v1Swap(Place p, Bound memory) {
        Bound memsw = tightest(p, "memory.memsw.limit_in_bytes", false);
        if (!memsw.limited()) return memsw;
        if (!memory.limited()) return memsw; // memory+swap bounded, memory alone not: swap may take all of it
        return Bound.of(Math.max(0, memsw.value() - memory.value()), memsw.source());
    }

    // ---- pids ----

    Pids pids(Place p) {
        if (p == null || p.dir() == null) return new Pids(Bound.unknown(p == null ? "no pids controller" : p.why()), null, null);
        Bound max = tightest(p, "pids.max", true);
        Long current = reads.number(p.dir() + "/pids.current", !p.dir().equals(p.top()));
        Long headroom = null;
        for (String d : CgroupLayout.levels(p)) {
            Bound b = bound(d + "/pids.max", true);
            if (b == null || !b.limited()) continue;
            Long used = d.equals(p.dir()) ? current : reads.number(d + "/pids.current", false);
            if (used == null) continue;
            long room = Math.max(0, b.value() - used);
            headroom = headroom == null ? room : Math.min(headroom, room);
        }
        return new Pids(max, current, headroom);
    }

    // ---- shared ----

    /** The smallest value of {@code file} over the levels; "none" when every level says max or lacks the file. */
    Bound tightest(Place p, String file, boolean maxWord) {
        Bound best = null;
        boolean anyRead = false;
        for (String d : CgroupLayout.levels(p)) {
            Bound b = bound(d + "/" + file, maxWord);
            if (b == null) continue;
            anyRead = true;
            if (b.source().startsWith("unknown")) return b; // a garbled level may be the tightest one
            if (b.limited() && (best == null || b.value() < best.value())) best = b;
        }
        if (best != null) return best;
        String where = p.dir() + (p.dir().equals(p.top()) ? "" : " or above");
        return anyRead ? Bound.none("none: no " + file + " limit in " + where) : Bound.none("none: no " + file + " in " + where);
    }

    /**
     * One limit file: a number, "max" (v2's no limit) or v1's huge no-limit value. Null when the
     * file is absent (the root cgroup has none of the limit files).
     */
    private Bound bound(String path, boolean maxWord) {
        Optional<String> t = reads.text(path, false);
        if (t.isEmpty()) return null;
        String v = t.get();
        if (maxWord && v.equals("max")) return Bound.none(path);
        Long n = FactReads.parseNumber(v);
        if (n == null) {
            reads.garbage(path, maxWord ? "not a number or \"max\"" : "not a number", v);
            return Bound.unknown(path + ": \"" + FactReads.shown(v) + "\"");
        }
        return n >= V1_UNLIMITED ? Bound.none(path) : Bound.of(n, path);
    }

    /** A flat "key value" file (memory.events, memory.oom_control, cpu.stat); garbled values are left out and named. */
    Map<String, Long> keyed(String path) {
        Map<String, Long> out = new LinkedHashMap<>();
        Optional<String> t = reads.text(path, false);
        if (t.isEmpty()) return out;
        for (String line : t.get().split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length != 2) continue;
            Long n = FactReads.parseNumber(f[1]);
            if (n == null) reads.garbage(path, f[0] + " is not a count", f[1]);
            else out.put(f[0], n);
        }
        return out;
    }
}
