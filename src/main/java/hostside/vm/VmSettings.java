package hostside.vm;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.process.Limits;
import hostside.vm.facts.VmFacts;

/**
 * Module 2's settings as labelled lines, for {@link VmDocument}: page size, THP and khugepaged,
 * hugetlb pools, memory, the vm sysctls and the memlock limit; then what could not be read. A value
 * the kernel did not give reads "unknown".
 */
final class VmSettings {
    private VmSettings() {}

    static List<Block> blocks(VmFacts f) {
        List<KeyValues.Entry> e = new ArrayList<>();
        VmFacts.PageSize p = f.pageSize();
        e.add(KeyValues.Entry.of("base page", p == null || p.bytes() == null ? "unknown"
                : Units.bytes(p.bytes()) + " (" + p.source() + (p.assumed() ? ", assumed" : "") + ")"));
        e.add(KeyValues.Entry.of("arch", f.arch() == null || f.arch().name() == null ? "unknown" : f.arch().name()));
        e.add(KeyValues.Entry.of("THP", thp(f.thp())));
        if (f.thp() != null && f.thp().khugepaged() != null) {
            VmFacts.Khugepaged k = f.thp().khugepaged();
            e.add(KeyValues.Entry.of("khugepaged", "defrag " + Units.orUnknown(k.defrag()) + ", " + Units.orUnknown(k.pagesToScan()) + " pages per " + Units.orUnknown(k.scanSleepMillisecs())
                    + " ms, max_ptes_none " + Units.orUnknown(k.maxPtesNone()) + ", collapsed " + Units.orUnknown(k.pagesCollapsed())));
        }
        e.add(KeyValues.Entry.of("hugetlb", hugetlb(f.hugetlb())));
        VmFacts.Meminfo m = f.memory();
        if (m != null) {
            e.add(KeyValues.Entry.of("memory", Units.bytes(m.memTotalBytes()) + " total, " + Units.bytes(m.memAvailableBytes()) + " available, AnonHugePages "
                    + Units.bytes(m.anonHugePagesBytes()) + ", swap " + Units.bytes(m.swapTotalBytes()) + ", Mlocked " + Units.bytes(m.mlockedBytes())));
        }
        VmFacts.Sysctl s = f.sysctl();
        if (s != null) {
            e.add(KeyValues.Entry.of("sysctls", "overcommit_memory " + Units.orUnknown(s.overcommitMemory()) + ", swappiness " + Units.orUnknown(s.swappiness())
                    + ", numa_balancing " + Units.orUnknown(s.numaBalancing()) + ", zone_reclaim_mode " + Units.orUnknown(s.zoneReclaimMode())
                    + ", max_map_count " + Units.orUnknown(s.maxMapCount())));
        }
        VmFacts.ProcessLimits pl = f.process();
        if (pl != null) e.add(KeyValues.Entry.of("memlock", limit(pl.memlock()) + (Boolean.TRUE.equals(pl.capIpcLock()) ? " (CAP_IPC_LOCK: not enforced)" : "")));
        List<Block> out = new ArrayList<>();
        out.add(new KeyValues(e));
        for (String u : f.unknowns()) out.add(Note.of("unknown: " + u));
        return out;
    }

    private static String thp(VmFacts.Thp t) {
        if (t == null || !t.available()) return t == null ? "unknown" : t.status();
        return "enabled " + sel(t.enabled()) + ", defrag " + sel(t.defrag()) + ", shmem " + sel(t.shmemEnabled())
                + (t.pmdSizeBytes() == null ? "" : ", huge page " + Units.bytes(t.pmdSizeBytes()))
                + (t.mthp().isEmpty() ? "" : ", " + t.mthp().size() + " mTHP sizes");
    }

    private static String sel(VmFacts.Setting s) {
        return s == null || s.selected() == null ? "unknown" : s.selected();
    }

    private static String hugetlb(List<VmFacts.HugetlbPool> pools) {
        if (pools.isEmpty()) return "no pools";
        List<String> each = new ArrayList<>();
        for (VmFacts.HugetlbPool p : pools) each.add(Units.bytes(p.pageBytes()) + ": " + Units.orUnknown(p.total()) + " pages, " + Units.orUnknown(p.free()) + " free");
        return String.join("; ", each);
    }

    private static String limit(Limits.Limit l) {
        if (l == null) return "unknown";
        return (l.softUnlimited() ? "unlimited" : Units.bytes(l.soft())) + " soft, " + (l.hardUnlimited() ? "unlimited" : Units.bytes(l.hard())) + " hard";
    }
}
