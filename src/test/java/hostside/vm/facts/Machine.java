package hostside.vm.facts;

import java.nio.file.Path;
import java.util.OptionalLong;

import hostside.fs.FsRoot;
import hostside.testing.RecordedMachine;

/** A small recorded machine in a temp folder: a healthy x86 box by default, files changed per test. */
final class Machine extends RecordedMachine<Machine> {
    static final String THP = "/sys/kernel/mm/transparent_hugepage";

    Machine(Path root) {
        super(root);
    }

    VmFacts read() {
        return VmFactsReader.read(FsRoot.open(root.toString()), OptionalLong.empty());
    }

    static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units    \s
            Max cpu time              unlimited            unlimited            seconds  \s
            Max stack size            8388608              unlimited            bytes    \s
            Max open files            1024                 1048576              files    \s
            Max locked memory         unlimited            unlimited            bytes    \s
            Max nice priority         0                    0                    \s
            """;

    static final String STATUS = """
            Name:\tjava
            Pid:\t4242
            Uid:\t1000\t1000\t1000\t1000
            Gid:\t1000\t1000\t1000\t1000
            CapInh:\t0000000000000000
            CapPrm:\t0000000000000000
            CapEff:\t0000000000000000
            """;

    /** A healthy 2-node x86 training box: THP madvise, no swap, no hugetlb pool, memlock unlimited. */
    static Machine healthy(Path root) {
        Machine m = new Machine(root);
        m.put(THP + "/enabled", "always [madvise] never\n");
        m.put(THP + "/defrag", "always defer defer+madvise [madvise] never\n");
        m.put(THP + "/shmem_enabled", "always within_size advise [never] deny force\n");
        m.put(THP + "/use_zero_page", "1\n");
        m.put(THP + "/hpage_pmd_size", "2097152\n");
        m.put(THP + "/khugepaged/defrag", "1\n");
        m.put(THP + "/khugepaged/pages_to_scan", "4096\n");
        m.put(THP + "/khugepaged/scan_sleep_millisecs", "10000\n");
        m.put(THP + "/khugepaged/max_ptes_none", "511\n");
        m.put(THP + "/khugepaged/pages_collapsed", "12\n");
        m.put(THP + "/khugepaged/full_scans", "3\n");
        for (String size : new String[] {"2048", "1048576"}) {
            String d = "/sys/kernel/mm/hugepages/hugepages-" + size + "kB/";
            m.put(d + "nr_hugepages", "0\n").put(d + "free_hugepages", "0\n").put(d + "resv_hugepages", "0\n")
                    .put(d + "surplus_hugepages", "0\n").put(d + "nr_overcommit_hugepages", "0\n");
            for (int node = 0; node < 2; node++) {
                String n = "/sys/devices/system/node/node" + node + "/hugepages/hugepages-" + size + "kB/";
                m.put(n + "nr_hugepages", "0\n").put(n + "free_hugepages", "0\n").put(n + "surplus_hugepages", "0\n");
            }
        }
        m.put("/sys/devices/system/node/online", "0-1\n");
        m.put("/proc/meminfo", """
                MemTotal:       263921576 kB
                MemFree:        200000000 kB
                MemAvailable:   250000000 kB
                Mlocked:               0 kB
                SwapTotal:             0 kB
                SwapFree:              0 kB
                CommitLimit:    131960788 kB
                Committed_AS:    5000000 kB
                AnonHugePages:    204800 kB
                ShmemHugePages:        0 kB
                FileHugePages:         0 kB
                HugePages_Total:       0
                Hugepagesize:       2048 kB
                Hugetlb:               0 kB
                """);
        m.put("/proc/sys/vm/overcommit_memory", "0\n");
        m.put("/proc/sys/vm/overcommit_ratio", "50\n");
        m.put("/proc/sys/vm/swappiness", "60\n");
        m.put("/proc/sys/vm/max_map_count", "65530\n");
        m.put("/proc/sys/vm/zone_reclaim_mode", "0\n");
        m.put("/proc/sys/vm/min_free_kbytes", "90112\n");
        m.put("/proc/sys/vm/watermark_scale_factor", "10\n");
        m.put("/proc/sys/vm/compaction_proactiveness", "20\n");
        m.put("/proc/sys/kernel/numa_balancing", "0\n");
        m.put("/proc/vmstat", """
                nr_free_pages 50000000
                pgfault 123456
                pgmajfault 78
                numa_hint_faults 0
                numa_pages_migrated 0
                compact_stall 2
                thp_fault_alloc 900
                thp_fault_fallback 10
                thp_collapse_alloc 5
                """);
        m.put("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu lm pdpe1gb\n");
        m.put("/proc/4242/limits", LIMITS);
        m.put("/proc/4242/status", STATUS);
        m.link("/proc/self", "4242");
        return m;
    }
}
