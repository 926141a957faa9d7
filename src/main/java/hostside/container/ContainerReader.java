package hostside.container;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.container.ContainerFacts.Cgroups;
import hostside.container.ContainerFacts.Namespaces;
import hostside.container.ContainerFacts.RootFs;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
import hostside.fs.Mounts.Mount;
import hostside.fs.Mounts;
import hostside.fs.Read;
import hostside.process.ThisProcess;

/**
 * Reads {@link ContainerFacts}: every file through the {@link FsRoot} (so recordings work), the
 * environment and /dev/shm's statvfs from the {@link LiveProcess}. Never throws on what it
 * reads: a missing or garbled value is null and a line in {@code unknowns}.
 */
public final class ContainerReader {
    private ContainerReader() {}

    public static ContainerFacts read(FsRoot fs, LiveProcess live) {
        List<String> unknowns = new ArrayList<>();
        FactReads reads = new FactReads(fs, unknowns);
        List<Mount> mounts = Mounts.read(fs);
        if (mounts.isEmpty()) unknowns.add("/proc/self/mountinfo: unreadable or empty: cgroup mounts, /dev/shm and / are unknown");
        Map<String, String> status = status(fs, unknowns);
        Long memTotal = fs.text("/proc/meminfo").map(t -> MemInfo.parse(t).get("MemTotal"))
                .filter(o -> o.isPresent()).map(o -> o.getAsLong()).orElse(null);

        Cgroups cgroups = CgroupLayout.read(fs, mounts, unknowns);
        CgroupLimits limits = new CgroupLimits(reads);
        var memory = limits.memory(cgroups.places().get("memory"), memTotal);
        var pids = limits.pids(cgroups.places().get("pids"));
        var cpu = new CpuLimits(fs, reads, limits).read(cgroups.places().get("cpu"), status);
        for (var e : cgroups.places().entrySet()) {
            if (e.getValue().dir() == null && e.getValue().version() != null) unknowns.add(e.getKey() + " cgroup: " + e.getValue().why());
        }
        Namespaces ns = NamespaceReader.read(fs, unknowns);
        // this process's limits and capabilities, through the one reader of them
        ThisProcess self = ThisProcess.read(fs);
        return new ContainerFacts(RuntimeDetector.detect(fs, live, ns, mounts), cgroups, memory, cpu, pids,
                ShmReader.read(mounts, live, memTotal), Privileges.limits(self, reads, unknowns),
                Privileges.capabilities(self, status.isEmpty(), reads, unknowns), GpuNodes.read(fs, live), ns, rootFs(mounts),
                List.copyOf(unknowns));
    }

    /** /proc/self/status as "Key: value" pairs; empty, with an unknown, when unreadable. */
    private static Map<String, String> status(FsRoot fs, List<String> unknowns) {
        Map<String, String> out = new LinkedHashMap<>();
        Read r = fs.read("/proc/self/status");
        if (!(r instanceof Read.Ok ok)) {
            unknowns.add(r.why());
            return out;
        }
        for (String line : ok.text().split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) out.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return out;
    }

    private static RootFs rootFs(List<Mount> mounts) {
        Mount root = null, tmp = null;
        for (Mount m : mounts) {
            if (m.point().equals("/")) root = m;
            if (m.point().equals("/tmp")) tmp = m;
        }
        if (root == null) return new RootFs(null, null, null);
        boolean ro = root.options().contains("ro");
        Boolean tmpWritable = tmp != null ? !tmp.options().contains("ro") : !ro;
        return new RootFs(ro, root.type(), tmpWritable);
    }
}
