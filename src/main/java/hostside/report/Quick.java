package hostside.report;

import java.util.List;
import java.util.Set;

import hostside.harness.Skipped;
import hostside.harness.TestCase;

/**
 * What {@code report --quick} measures: the facts, and one pass of the figures the first page
 * stands on (the four answers and the headlines), for sweeps over many nodes. Every other case
 * keeps its row, "not run" with {@link #WHY}, so a quick report never looks like a full one
 * with missing figures. The figures it keeps are measured exactly as the full report measures
 * them (same sampling, same peer), so a quick report compares with a full one figure by figure;
 * only Module 4's test file is smaller ({@link #IO_FILE}).
 *
 * Measured: docs/measurements/2026-12-05-fleet.md.
 */
public final class Quick {
    private Quick() {}

    public static final String WHY = "--quick measures the headline figures only (the full report measures this)";

    /**
     * Module 4's test file unless --size says otherwise: 256 MiB, a quarter of the full report's and
     * still far past readahead (a sequential sample reads 256 MiB in either). On the dev VM the quick
     * report's three io figures at 256 MiB overlapped the same cases' ranges at 1 GiB and 2 GiB but
     * for one round's O_DIRECT reads, which drifted with no regard to size, and the whole io drill
     * took 26-28 s instead of 42-46 s
     * (docs/measurements/2026-12-07-io-file-size-devvm.md); its writes are 128 MiB, as the full report's
     * ({@link hostside.io.IoDrill#MAX_WRITE}).
     */
    public static final long IO_FILE = 256L << 20;

    /**
     * The kept cases, by drill: what the four answers and the headline table quote. Module 1: the
     * four copies (the link answer and the headlines) and the pairwise read copies, the one figure
     * that finds a degraded NVLink. Module 2: the fault costs (no test file). Module 3: the syscall
     * (its verdict, M3-SYSCALL, can warn) and the quiet jitter the CPU answer quotes (the launch's on a
     * GPU machine, the timer's elsewhere: {@link #of(List, boolean)}). Module 4: the three figures of
     * the "beyond the box" answer. Memory bandwidth and latency are left out: 15 s of the H200's 43 s
     * in a first quick run, and no answer quotes them (docs/measurements/2026-12-05-fleet.md). So is the
     * same-core context switch: no answer or headline quotes it, its one verdict is an info line
     * (M3-HANDOFF), its figure is bimodal on the GPU VMs, and it took 0.5-0.8 s of an H100 VM's 14.8-16.9 s
     * quick report (docs/measurements/2026-12-08-minute-cuts.md).
     */
    static final Set<String> KEEP = Set.of(
            "host_to_device_ce_pinned", "device_to_host_ce_pinned", "host_to_device_ce_pageable", "device_to_host_ce_pageable",
            "device_to_device_memcpy_read_ce",
            "anon_first_touch_base", "anon_first_touch_thp",
            "syscall_getppid", "timer_jitter_quiet", "launch_jitter_quiet",
            "seq_read_cold_qd1", "seq_read_direct_uring_qd32", "write_fsync");

    /** On a GPU machine the launch jitter answers for the feeder; the timer's is then left to the full report. */
    static final String TIMER = "timer_jitter_quiet";
    static final String WHY_GPU = "--quick on a GPU machine: launch_jitter_quiet answers for the feeder (the full report measures this)";

    /** {@code all} as a quick run takes it on a machine with a GPU or without: the kept cases as they are, every other one {@link Skipped}. */
    public static <C> List<TestCase<C>> of(List<TestCase<C>> all, boolean gpu) {
        return all.stream().map(t -> !KEEP.contains(t.key()) ? (TestCase<C>) new Skipped<>(t, WHY)
                : gpu && t.key().equals(TIMER) ? (TestCase<C>) new Skipped<>(t, WHY_GPU) : t).toList();
    }
}
