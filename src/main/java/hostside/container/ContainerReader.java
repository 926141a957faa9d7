package hostside.container;

import java.util.ArrayList;
import java.util.List;

import hostside.container.ContainerFacts.Namespaces;
import hostside.container.ContainerFacts.RootFs;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
import hostside.fs.Mounts.Mount;
import hostside.fs.Mounts;
import hostside.process.CgroupLayout;
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
        // this process's status, limits and capabilities, through the one reader of them
        ThisProcess self = ThisProcess.read(fs);
        if (self.status() == null) unknowns.add(self.statusWhy());
        Long memTotal = MemInfo.proc(fs, "MemTotal");

        CgroupLayout cgroups = CgroupLayout.read(fs, mounts, unknowns);
        CgroupLimits limits = new CgroupLimits(reads);
        var memory = limits.memory(cgroups.places().get("memory"), memTotal);
        var pids = limits.pids(cgroups.places().get("pids"));
        var cpu = new CpuLimits(fs, reads, limits).read(cgroups.places().get("cpu"), self.status() == null ? null : self.cpusAllowed(reads, unknowns));
        for (var e : cgroups.places().entrySet()) {
            if (e.getValue().dir() == null && e.getValue().version() != null) unknowns.add(e.getKey() + " cgroup: " + e.getValue().why());
        }
        Namespaces ns = NamespaceReader.read(fs, unknowns);
        return new ContainerFacts(RuntimeDetector.detect(fs, live, ns, mounts), cgroups, memory, cpu, pids,
                ShmReader.read(mounts, live, memTotal), Privileges.limits(self, reads, unknowns),
                Privileges.capabilities(self, self.status() == null, reads, unknowns), GpuNodes.read(fs, live), ns, rootFs(mounts),
                List.copyOf(unknowns));
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
